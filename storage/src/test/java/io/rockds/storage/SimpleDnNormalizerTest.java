package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.DistinguishedNameMatchingRule;
import com.unboundid.ldap.sdk.LDAPException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SimpleDnNormalizerTest {
  private static final String ALPHABET = "aZq09 ,,==.-_+\\\"#;<>éU";

  @Test
  void agreesWithUnboundIdOnRandomInput() {
    Random random = new Random(42);
    int handled = 0;
    for (int i = 0; i < 200_000; i++) {
      String dn = randomDn(random);
      byte[] fast = SimpleDnNormalizer.normalize(dn.getBytes(StandardCharsets.UTF_8));
      if (fast != null) {
        handled++;
        assertThat(new String(fast, StandardCharsets.UTF_8))
            .as("normalized [%s]", dn)
            .isEqualTo(reference(dn));
      }
    }
    assertThat(handled).as("DNs the fast path handled").isGreaterThan(20_000);
  }

  @Test
  void normalizesTypicalDns() {
    assertThat(normalized("uid=User.1, ou=People,dc=Example,dc=COM"))
        .isEqualTo("uid=user.1,ou=people,dc=example,dc=com");
    assertThat(normalized(" CN = John   Smith , O=Q")).isEqualTo("cn=john smith,o=q");
  }

  @Test
  void leavesAnythingUnusualToTheMatchingRule() {
    for (String dn :
        new String[] {
          "",
          "cn=a\\,b,dc=x",
          "cn=a+sn=b",
          "2.5.4.3=x",
          "cn=\"q\"",
          "cn=é",
          "cn=a,",
          "cn=a=b",
          "cn=#41",
          "cn"
        }) {
      assertThat(SimpleDnNormalizer.normalize(dn.getBytes(StandardCharsets.UTF_8))).as(dn).isNull();
    }
  }

  private static String normalized(String dn) {
    return new String(
        SimpleDnNormalizer.normalize(dn.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
  }

  private static String reference(String dn) {
    try {
      return DistinguishedNameMatchingRule.getInstance()
          .normalize(new ASN1OctetString(dn))
          .stringValue();
    } catch (LDAPException e) {
      return "<invalid: " + e.getMessage() + ">";
    }
  }

  /** Mostly well-formed RDN sequences with random spacing, case and the odd special character. */
  private static String randomDn(Random random) {
    StringBuilder sb = new StringBuilder();
    int rdns = 1 + random.nextInt(4);
    for (int r = 0; r < rdns; r++) {
      if (r > 0) {
        sb.append(spaces(random)).append(',').append(spaces(random));
      }
      sb.append(random.nextInt(20) == 0 ? "1" : "")
          .append(random.nextBoolean() ? "cn" : "UID")
          .append(random.nextInt(10) == 0 ? "-x" : "")
          .append(spaces(random))
          .append('=')
          .append(spaces(random));
      int len = random.nextInt(8);
      for (int c = 0; c < len; c++) {
        sb.append(
            random.nextInt(12) == 0
                ? ALPHABET.charAt(random.nextInt(ALPHABET.length()))
                : ALPHABET.charAt(random.nextInt(7)));
      }
    }
    return sb.toString();
  }

  private static String spaces(Random random) {
    return " ".repeat(random.nextInt(4) == 0 ? random.nextInt(3) : 0);
  }
}
