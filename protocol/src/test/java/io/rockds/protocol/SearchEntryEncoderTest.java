package io.rockds.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.asn1.ASN1Buffer;
import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchResultEntryProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SearchEntryEncoder} writes what the UnboundID SDK's {@code LDAPMessage.writeTo} writes for
 * the same search result entry, byte for byte: the encoding the server used before, which every
 * client test already accepts.
 */
class SearchEntryEncoderTest {
  private final SearchEntryEncoder encoder = new SearchEntryEncoder();

  @Test
  void aUserEntryWithABinaryPhotoSlicedFromARecord() {
    Random random = new Random(24);
    byte[] record = new byte[4000];
    random.nextBytes(record);
    // Values as id2entry decodes them: slices of one record, none starting at its first byte.
    Attribute photo = new Attribute("jpegPhoto", new ASN1OctetString(record, 1000, 1500));
    Attribute certificate =
        new Attribute("userCertificate;binary", new ASN1OctetString(record, 7, 300));
    List<Attribute> attributes =
        List.of(
            new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
            new Attribute("uid", "user.1"),
            new Attribute("cn", "Jeffrey Johnson"),
            new Attribute("cn;lang-fr", "Geoffroy Jeanson"),
            new Attribute("description", new ASN1OctetString(record, 2600, 90)),
            photo,
            certificate);
    assertSameAsTheSdk(7, "uid=user.1,ou=People,dc=example,dc=com", attributes);
  }

  @Test
  void typesOnlyAndNoAttributes() {
    assertSameAsTheSdk(
        2,
        "cn=types,dc=example,dc=com",
        List.of(new Attribute("cn"), new Attribute("jpegPhoto"), new Attribute("sn;lang-de")));
    assertSameAsTheSdk(3, "cn=nothing", List.of());
    assertSameAsTheSdk(4, "", List.of(new Attribute("namingContexts", "dc=example,dc=com")));
  }

  @Test
  void nonAsciiDnNamesAndStringValues() {
    assertSameAsTheSdk(
        5,
        "cn=Zoë 日本 \uD83D\uDE00,ou=Äpfel,dc=example,dc=com",
        List.of(
            new Attribute("cn", "Zoë 日本 \uD83D\uDE00", "plain"),
            new Attribute("description", "Ça coûte 10 €"),
            new Attribute("x-Attribut-Ä", "ü")));
  }

  @Test
  void everyLengthFormAtEveryNestingLevel() {
    // Around each boundary of the length forms (short, 0x81, 0x82, 0x83, 0x84), so that the value,
    // its set, its attribute, the attribute list, the entry and the message cross it in turn.
    int[] sizes = {
      0,
      1,
      100,
      110,
      115,
      118,
      119,
      120,
      121,
      122,
      123,
      124,
      125,
      126,
      127,
      128,
      129,
      130,
      240,
      245,
      250,
      251,
      252,
      253,
      254,
      255,
      256,
      257,
      65_500,
      65_520,
      65_525,
      65_530,
      65_533,
      65_535,
      65_536,
      65_540,
      0xFF_FFFF - 40,
      0xFF_FFFF - 10,
      0xFF_FFFF + 1
    };
    for (int size : sizes) {
      byte[] value = new byte[size];
      Arrays.fill(value, (byte) 'v');
      assertSameAsTheSdk(
          9, "cn=large,dc=example,dc=com", List.of(new Attribute("description", value)));
    }
  }

  @Test
  void everyMessageIdWidth() {
    int[] ids = {
      0,
      1,
      127,
      128,
      255,
      256,
      32_767,
      32_768,
      8_388_607,
      8_388_608,
      Integer.MAX_VALUE,
      -1,
      -128,
      -129,
      -32_768,
      -32_769,
      -8_388_608,
      -8_388_609,
      Integer.MIN_VALUE
    };
    for (int id : ids) {
      assertSameAsTheSdk(id, "cn=id", List.of(new Attribute("cn", "id")));
    }
  }

  @Test
  void aLargeEntryThenSmallOnesWithTheSameEncoder() {
    List<Attribute> many = new ArrayList<>();
    for (int i = 0; i < 700; i++) {
      many.add(new Attribute("attr" + i, "value " + i, "other " + i));
    }
    many.add(new Attribute("jpegPhoto", new byte[SearchEntryEncoder.RETAINED_BYTES * 3]));
    assertSameAsTheSdk(1, "cn=many", many);
    assertSameAsTheSdk(2, "cn=few", List.of(new Attribute("cn", "few")));
    assertSameAsTheSdk(3, "cn=none", List.of());
  }

  @Test
  void randomEntries() {
    Random random = new Random(2026_11_28L);
    for (int n = 0; n < 300; n++) {
      List<Attribute> attributes = new ArrayList<>();
      int count = random.nextInt(40);
      for (int a = 0; a < count; a++) {
        ASN1OctetString[] values = new ASN1OctetString[random.nextInt(5)];
        for (int v = 0; v < values.length; v++) {
          byte[] bytes = new byte[random.nextInt(random.nextBoolean() ? 40 : 3000)];
          random.nextBytes(bytes);
          int offset = random.nextInt(bytes.length + 1);
          values[v] = new ASN1OctetString(bytes, offset, random.nextInt(bytes.length - offset + 1));
        }
        attributes.add(new Attribute("a" + a + (random.nextBoolean() ? ";lang-x" : ""), values));
      }
      assertSameAsTheSdk(random.nextInt(), "cn=" + n + ",dc=example,dc=com", attributes);
    }
  }

  /**
   * Encodes the entry both ways the server does (decoded values; DN and values as slices of stored
   * bytes) and compares each with the SDK's encoding.
   */
  private void assertSameAsTheSdk(int messageId, String dn, List<Attribute> attributes) {
    ASN1Buffer sdk = new ASN1Buffer();
    new LDAPMessage(messageId, new SearchResultEntryProtocolOp(dn, attributes)).writeTo(sdk);
    byte[] expected = sdk.toByteArray();
    String what = "message " + messageId + ", dn " + dn + ", " + attributes.size() + " attributes";

    encoder.start(messageId, dn);
    for (Attribute attribute : attributes) {
      encoder.attribute(attribute.getName());
      for (ASN1OctetString value : attribute.getRawValues()) {
        encoder.value(value);
      }
    }
    assertThat(written()).as("decoded values, %s", what).isEqualTo(expected);

    byte[] dnBytes = embedded(dn.getBytes(StandardCharsets.UTF_8));
    encoder.start(messageId, dnBytes, EMBEDDED_AT, dnBytes.length - 2 * EMBEDDED_AT);
    for (Attribute attribute : attributes) {
      encoder.attribute(attribute.getName());
      for (byte[] value : attribute.getValueByteArrays()) {
        encoder.value(embedded(value), EMBEDDED_AT, value.length);
      }
    }
    assertThat(written()).as("stored bytes, %s", what).isEqualTo(expected);
  }

  private static final int EMBEDDED_AT = 3;

  /** {@code bytes} in the middle of a larger array, as a slice of a stored record is. */
  private static byte[] embedded(byte[] bytes) {
    byte[] record = new byte[bytes.length + 2 * EMBEDDED_AT];
    Arrays.fill(record, (byte) 0x5A);
    System.arraycopy(bytes, 0, record, EMBEDDED_AT, bytes.length);
    return record;
  }

  /** What the encoder writes of the entry it was given: exactly the size it announced. */
  private byte[] written() {
    int size = encoder.finish();
    ByteBuf out = Unpooled.buffer(size, size);
    try {
      encoder.writeTo(out);
      assertThat(out.readableBytes()).isEqualTo(size);
      return ByteBufUtil.getBytes(out);
    } finally {
      out.release();
    }
  }
}
