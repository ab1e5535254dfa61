package io.rockds.storage.matching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.matching.MatchingRules.Kind;
import org.junit.jupiter.api.Test;

class MatchingRulesTest {
  private final Schema schema = standard();

  private static Schema standard() {
    try {
      return Schema.getDefaultStandardSchema();
    } catch (LDAPException e) {
      throw new AssertionError(e);
    }
  }

  private static String normalize(MatchingRule rule, String value) throws LDAPException {
    return rule.normalize(new ASN1OctetString(value)).stringValue();
  }

  @Test
  void strictFollowsTheSchemaAndIndexFallsBack() {
    assertThat(MatchingRules.strict("sn", Kind.ORDERING, schema)).isNull();
    assertThat(MatchingRules.strict("member", Kind.SUBSTRING, schema)).isNull();
    assertThat(MatchingRules.forIndex("sn", Kind.ORDERING, schema)).isNotNull();
    assertThat(MatchingRules.strict("createTimestamp", Kind.ORDERING, schema)).isNotNull();
    // A type the schema does not know: case-ignore defaults.
    assertThat(MatchingRules.strict("x-unknown", Kind.ORDERING, schema)).isNotNull();
  }

  @Test
  void indexAndEvaluationShareOneTelephoneNumberRule() throws Exception {
    MatchingRule equality = MatchingRules.forIndex("telephoneNumber", Kind.EQUALITY, schema);
    assertThat(MatchingRules.strict("telephoneNumber", Kind.EQUALITY, schema)).isSameAs(equality);
    assertThat(MatchingRules.forIndex("telephoneNumber", Kind.SUBSTRING, schema))
        .isSameAs(equality);
    assertThat(normalize(equality, "+1 (555) 01-00 ")).isEqualTo("+1(555)0100");
    assertThat(normalize(equality, "+1-555-0100")).isEqualTo(normalize(equality, "+1 555 0100"));
    assertThat(normalize(equality, "+1.555.0100")).isNotEqualTo(normalize(equality, "+1 555 0100"));
  }

  @Test
  void uniqueMemberKeepsTheUidApartFromTheDn() throws Exception {
    MatchingRule rule = MatchingRules.forIndex("uniqueMember", Kind.EQUALITY, schema);
    assertThat(normalize(rule, "UID=a, DC=x#'01'B")).isEqualTo(normalize(rule, "uid=a,dc=x#'01'B"));
    assertThat(normalize(rule, "uid=a,dc=x#'01'B")).isNotEqualTo(normalize(rule, "uid=a,dc=x"));
    assertThatThrownBy(
            () ->
                rule.normalizeSubstring(
                    new ASN1OctetString("a"), MatchingRule.SUBSTRING_TYPE_SUBANY))
        .isInstanceOf(LDAPException.class);
  }
}
