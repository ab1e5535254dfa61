package io.rockds.protocol;

import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import java.io.ByteArrayOutputStream;
import java.util.List;

/** Request PDUs for the tests, well-formed or deliberately not. */
final class Pdus {
  private Pdus() {}

  static byte[] bind(int messageId) {
    return new LDAPMessage(messageId, new BindRequestProtocolOp("cn=x", "secret"))
        .encode()
        .encode();
  }

  static byte[] search(int messageId, String base) {
    return new LDAPMessage(
            messageId,
            new SearchRequestProtocolOp(
                base,
                SearchScope.BASE,
                DereferencePolicy.NEVER,
                0,
                0,
                false,
                Filter.createPresenceFilter("objectClass"),
                List.of()))
        .encode()
        .encode();
  }

  /** A BER TLV with a definite length in the shortest form. */
  static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    writeLength(out, content.length);
    out.writeBytes(content);
    return out.toByteArray();
  }

  static void writeLength(ByteArrayOutputStream out, int length) {
    if (length < 0x80) {
      out.write(length);
      return;
    }
    int octets = length < 0x100 ? 1 : length < 0x10000 ? 2 : length < 0x1000000 ? 3 : 4;
    out.write(0x80 | octets);
    for (int i = octets - 1; i >= 0; i--) {
      out.write(length >>> (8 * i));
    }
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  /** A search whose filter is {@code depth} nested NOTs around a presence filter. */
  static byte[] deeplyNestedSearch(int messageId, int depth) {
    byte[] filter = tlv(0x87, "objectClass".getBytes()); // present
    for (int i = 0; i < depth; i++) {
      filter = tlv(0xa2, filter); // not
    }
    byte[] search =
        tlv(
            0x63,
            concat(
                tlv(0x04, "cn=x".getBytes()), // baseObject
                new byte[] {0x0a, 0x01, 0x00}, // scope base
                new byte[] {0x0a, 0x01, 0x00}, // derefAliases never
                new byte[] {0x02, 0x01, 0x00}, // sizeLimit
                new byte[] {0x02, 0x01, 0x00}, // timeLimit
                new byte[] {0x01, 0x01, 0x00}, // typesOnly
                filter,
                tlv(0x30, new byte[0]))); // attributes
    return tlv(0x30, concat(new byte[] {0x02, 0x01, (byte) messageId}, search));
  }
}
