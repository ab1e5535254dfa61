package io.rockds.storage.matching;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import io.rockds.storage.matching.FilterEvaluator.Result;
import java.util.List;
import org.junit.jupiter.api.Test;

class FilterEvaluatorTest {
  private final FilterEvaluator evaluator = new FilterEvaluator(schema());
  private final Entry entry =
      entry(
          "dn: uid=jdoe,ou=People,dc=example,dc=com",
          "objectClass: inetOrgPerson",
          "uid: jdoe",
          "cn: John Doe",
          "cn;lang-fr: Jean Dupont",
          "sn: Smith",
          "telephoneNumber: +1 408 555 1212",
          "member: uid=Bob , ou=People,dc=example,dc=com",
          "changeNumber: 42",
          "createTimestamp: 20240101120000Z");

  private static com.unboundid.ldap.sdk.schema.Schema schema() {
    try {
      return com.unboundid.ldap.sdk.schema.Schema.getDefaultStandardSchema();
    } catch (com.unboundid.ldap.sdk.LDAPException e) {
      throw new AssertionError(e);
    }
  }

  private static Entry entry(String... ldif) {
    try {
      return new Entry(ldif);
    } catch (com.unboundid.ldif.LDIFException e) {
      throw new AssertionError(e);
    }
  }

  private Result eval(String filter) throws Exception {
    return evaluator.evaluate(Filter.create(filter), entry);
  }

  @Test
  void attributeOptionsAndSubtypes() throws Exception {
    assertThat(eval("(cn=jean dupont)")).isEqualTo(Result.TRUE);
    assertThat(eval("(cn;lang-fr=Jean Dupont)")).isEqualTo(Result.TRUE);
    assertThat(eval("(cn;lang-fr=John Doe)")).isEqualTo(Result.FALSE);
    assertThat(eval("(cn;lang-de=*)")).isEqualTo(Result.FALSE);
    assertThat(eval("(name=JOHN DOE)")).isEqualTo(Result.TRUE);
    assertThat(eval("(2.5.4.3=john doe)")).isEqualTo(Result.TRUE);
  }

  @Test
  void schemaMatchingRules() throws Exception {
    assertThat(eval("(telephoneNumber=+14085551212)")).isEqualTo(Result.TRUE);
    assertThat(eval("(telephoneNumber=*555-12*)")).isEqualTo(Result.TRUE);
    assertThat(eval("(member=UID=bob,ou=people,dc=example,dc=com)")).isEqualTo(Result.TRUE);
    assertThat(eval("(cn=*oh*do*)")).isEqualTo(Result.TRUE);
    assertThat(eval("(cn=Joh*Dox)")).isEqualTo(Result.FALSE);
  }

  @Test
  void orderingByMatchingRule() throws Exception {
    // Integer ordering: 42 >= 9 although "42" < "9" as text.
    assertThat(eval("(changeNumber>=9)")).isEqualTo(Result.TRUE);
    assertThat(eval("(changeNumber<=-3)")).isEqualTo(Result.FALSE);
    assertThat(eval("(createTimestamp>=20231231235959Z)")).isEqualTo(Result.TRUE);
    assertThat(eval("(createTimestamp<=202312312359Z)")).isEqualTo(Result.FALSE);
  }

  @Test
  void onlyComparingEachValueReadsEveryValueStoredApart() throws Exception {
    // Equality and presence test a group's members by point reads.
    assertThat(readsApart("(&(member=uid=bob,dc=example,dc=com)(member=*)(cn=*oe*))")).isFalse();
    assertThat(readsApart("(member:distinguishedNameMatch:=uid=bob,dc=example,dc=com)")).isTrue();
    // distinguishedName is member's supertype: it covers member's values.
    assertThat(readsApart("(!(|(sn=x)(distinguishedName:=uid=bob,dc=example,dc=com)))")).isTrue();
    assertThat(readsApart("(:caseIgnoreMatch:=bob)")).isTrue();
    // member has no SUBSTR rule: Undefined, nothing read.
    assertThat(readsApart("(member=*bob*)")).isFalse();
    assertThat(readsApart("(cn:caseExactMatch:=John Doe)")).isFalse();
  }

  private boolean readsApart(String filter) throws Exception {
    return evaluator.prepare(Filter.create(filter)).readsValuesApart();
  }

  @Test
  void missingRuleIsUndefinedAndNotOfUndefinedIsUndefined() throws Exception {
    // RFC 4511 section 4.5.1.7: sn has no ORDERING rule, member no SUBSTR rule.
    assertThat(eval("(sn>=Sm)")).isEqualTo(Result.UNDEFINED);
    assertThat(eval("(!(sn<=Sm))")).isEqualTo(Result.UNDEFINED);
    assertThat(eval("(member=*bob*)")).isEqualTo(Result.UNDEFINED);
    assertThat(eval("(!(member=*bob*))")).isEqualTo(Result.UNDEFINED);
    assertThat(eval("(|(sn>=Sm)(uid=jdoe))")).isEqualTo(Result.TRUE);
  }

  @Test
  void undefinedTypesAreUndefinedWhereTheSchemaGovernsAndCaseIgnoreElsewhere() throws Exception {
    Entry holding = entry("dn: cn=x", "objectClass: extensibleObject", "fooBar: X");
    FilterEvaluator strict = evaluator.definedTypesOnly();
    for (String filter : List.of("(fooBar=x)", "(fooBar=*)", "(fooBar=*x*)", "(fooBar>=a)")) {
      // RFC 4511 section 4.5.1.7: an attribute description the server does not recognize.
      assertThat(strict.evaluate(Filter.create(filter), entry)).isEqualTo(Result.UNDEFINED);
      assertThat(strict.evaluate(Filter.create("(!" + filter + ")"), entry))
          .isEqualTo(Result.UNDEFINED);
    }
    assertThat(strict.evaluate(Filter.create("(|(fooBar=x)(uid=jdoe))"), entry))
        .isEqualTo(Result.TRUE);
    assertThat(strict.definedTypesOnly()).isSameAs(strict);
    // cn=config and cn=monitor attributes are outside the schema and stay searchable.
    assertThat(evaluator.evaluate(Filter.create("(fooBar=x)"), holding)).isEqualTo(Result.TRUE);
    assertThat(evaluator.evaluate(Filter.create("(!(fooBar=*))"), entry)).isEqualTo(Result.TRUE);
  }

  @Test
  void telephoneNumberMatchIgnoresSpacesAndHyphensOnly() throws Exception {
    // RFC 4517 sections 4.2.29 and 4.2.30
    assertThat(eval("(telephoneNumber=+1-408-555-1212)")).isEqualTo(Result.TRUE);
    assertThat(eval("(telephoneNumber=+1 \\28408\\29 555 1212)")).isEqualTo(Result.FALSE);
    assertThat(eval("(telephoneNumber=*\\28408\\29*)")).isEqualTo(Result.FALSE);
    assertThat(eval("(telephoneNumber=+1408*)")).isEqualTo(Result.TRUE);
  }

  @Test
  void uniqueMemberMatchComparesTheDnAndTheOptionalUid() throws Exception {
    // RFC 4517 section 4.2.31
    Entry group =
        entry(
            "dn: cn=g,dc=example,dc=com",
            "objectClass: groupOfUniqueNames",
            "cn: g",
            "uniqueMember: uid=A,dc=example,dc=com#'0101'B",
            "uniqueMember: uid=b, dc=example,dc=com");
    assertThat(
            evaluator.evaluate(
                Filter.create("(uniqueMember=UID=a,DC=example,DC=com#'0101'B)"), group))
        .isEqualTo(Result.TRUE);
    assertThat(evaluator.evaluate(Filter.create("(uniqueMember=uid=a,dc=example,dc=com)"), group))
        .isEqualTo(Result.FALSE);
    assertThat(evaluator.evaluate(Filter.create("(uniqueMember=uid=B,dc=example,dc=com)"), group))
        .isEqualTo(Result.TRUE);
  }

  @Test
  void approximateUsesSoundex() throws Exception {
    assertThat(eval("(sn~=Smyth)")).isEqualTo(Result.TRUE);
    assertThat(eval("(sn~=Jones)")).isEqualTo(Result.FALSE);
  }

  @Test
  void undefinedFollowsRfc4511() throws Exception {
    assertThat(eval("(changeNumber>=abc)")).isEqualTo(Result.UNDEFINED);
    assertThat(eval("(member>=uid=a,dc=example,dc=com)")).isEqualTo(Result.UNDEFINED);
    assertThat(eval("(!(changeNumber=abc))")).isEqualTo(Result.UNDEFINED);
    assertThat(eval("(|(changeNumber=abc)(uid=jdoe))")).isEqualTo(Result.TRUE);
    assertThat(eval("(&(changeNumber=abc)(uid=nobody))")).isEqualTo(Result.FALSE);
    assertThat(eval("(&(changeNumber=abc)(uid=jdoe))")).isEqualTo(Result.UNDEFINED);
    assertThat(eval("(uid:1.2.3.4.5:=jdoe)")).isEqualTo(Result.UNDEFINED);
    assertThat(evaluator.matches(Filter.create("(!(changeNumber=abc))"), entry)).isFalse();
  }

  @Test
  void extensibleMatches() throws Exception {
    assertThat(eval("(uid:caseExactMatch:=JDOE)")).isEqualTo(Result.FALSE);
    assertThat(eval("(uid:caseIgnoreMatch:=JDOE)")).isEqualTo(Result.TRUE);
    assertThat(eval("(ou:dn:=people)")).isEqualTo(Result.TRUE);
    assertThat(eval("(ou=people)")).isEqualTo(Result.FALSE);
    assertThat(eval("(:caseIgnoreMatch:=smith)")).isEqualTo(Result.TRUE);
    assertThat(eval("(changeNumber:integerMatch:=42)")).isEqualTo(Result.TRUE);
    assertThat(eval("(changeNumber:2.5.13.14:=042)")).isEqualTo(Result.UNDEFINED);
    // An ordering rule is TRUE for values below the assertion; a substrings rule cannot be
    // asserted.
    assertThat(eval("(changeNumber:integerOrderingMatch:=50)")).isEqualTo(Result.TRUE);
    assertThat(eval("(changeNumber:integerOrderingMatch:=42)")).isEqualTo(Result.FALSE);
    assertThat(eval("(sn:caseIgnoreSubstringsMatch:=smith)")).isEqualTo(Result.UNDEFINED);
    // As decoded from a request: the assertion keeps its context-specific BER tag.
    Filter decoded = Filter.decode(Filter.create("(changeNumber:integerMatch:=42)").encode());
    assertThat(evaluator.evaluate(decoded, entry)).isEqualTo(Result.TRUE);
  }
}
