package io.rockds.server.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import org.junit.jupiter.api.Test;

class SchemaCheckerTest {
  private static final SchemaChecker CHECKER = new SchemaChecker(SchemaLoader.standard());

  @Test
  void check_returnsTheMostSpecificStructuralClass() throws Exception {
    assertThat(
            CHECKER
                .check(
                    entry(
                        "cn=a",
                        "objectClass: person",
                        "objectClass: inetOrgPerson",
                        "objectClass: posixAccount",
                        "cn: a",
                        "sn: a",
                        "uid: a",
                        "uidNumber: 1",
                        "gidNumber: 1",
                        "homeDirectory: /home/a"))
                .getNameOrOID())
        .isEqualTo("inetOrgPerson");
  }

  @Test
  void check_judgesEachEntryOnItsOwnAttributesWhateverItsClassesAllowedBefore() throws Exception {
    SchemaChecker checker = new SchemaChecker(SchemaLoader.standard());
    String[] person = {"objectClass: top", "objectClass: PERSON"};
    checker.check(entry("cn=a", person[0], person[1], "cn: a", "sn: a"));
    assertThatThrownBy(() -> checker.check(entry("cn=b", person[0], person[1], "cn: b")))
        .as("the same classes, sn missing")
        .hasMessage("object class 'person' requires attribute 'sn'");
    assertThatThrownBy(
            () -> checker.check(entry("cn=c", "objectClass: top", "objectClass: person", "sn: c")))
        .as("the same classes spelt otherwise, cn missing")
        .hasMessage("object class 'person' requires attribute 'cn'");
    assertThatThrownBy(
            () -> checker.check(entry("cn=d", person[0], person[1], "cn: d", "sn: d", "mail: d")))
        .hasMessage("attribute 'mail' not allowed");
  }

  @Test
  void check_refusesWithOpenLdapsResultCodes() {
    assertCode(ResultCode.OBJECT_CLASS_VIOLATION, "cn=a", "objectClass: person", "cn: a");
    assertCode(
        ResultCode.OBJECT_CLASS_VIOLATION,
        "cn=a",
        "objectClass: person",
        "cn: a",
        "sn: a",
        "mail: a@b");
    assertCode(ResultCode.OBJECT_CLASS_VIOLATION, "cn=a", "objectClass: top", "cn: a");
    assertCode(
        ResultCode.OBJECT_CLASS_VIOLATION,
        "cn=a",
        "objectClass: person",
        "objectClass: device",
        "cn: a",
        "sn: a");
    assertCode(
        ResultCode.UNDEFINED_ATTRIBUTE_TYPE,
        "cn=a",
        "objectClass: person",
        "cn: a",
        "sn: a",
        "fooBar: x");
    assertCode(ResultCode.INVALID_ATTRIBUTE_SYNTAX, "cn=a", "objectClass: noSuchClass", "cn: a");
    assertCode(
        ResultCode.INVALID_ATTRIBUTE_SYNTAX,
        "uid=a",
        "objectClass: account",
        "objectClass: posixAccount",
        "uid: a",
        "cn: a",
        "uidNumber: x",
        "gidNumber: 1",
        "homeDirectory: /");
    assertCode(
        ResultCode.CONSTRAINT_VIOLATION,
        "cn=a",
        "objectClass: inetOrgPerson",
        "cn: a",
        "sn: a",
        "displayName: 1",
        "displayName: 2");
    assertCode(ResultCode.NAMING_VIOLATION, "cn=a", "objectClass: person", "cn: b", "sn: a");
  }

  @Test
  void extensibleObject_allowsAnyDefinedAttribute() throws Exception {
    CHECKER.check(
        entry(
            "cn=a",
            "objectClass: person",
            "objectClass: extensibleObject",
            "cn: a",
            "sn: a",
            "mail: a@b"));
  }

  @Test
  void addSuperiorClasses_addsTheChain() throws Exception {
    Entry e = entry("cn=a", "objectClass: inetOrgPerson", "cn: a", "sn: a");
    CHECKER.addSuperiorClasses(e);
    assertThat(e.getObjectClassValues())
        .containsExactlyInAnyOrder("inetOrgPerson", "organizationalPerson", "person", "top");
  }

  @Test
  void checkUserModifiable_refusesOperationalStamps() {
    assertThatThrownBy(() -> CHECKER.checkUserModifiable("createTimestamp"))
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION));
  }

  private static void assertCode(ResultCode code, String rdn, String... lines) {
    assertThatThrownBy(() -> CHECKER.check(entry(rdn, lines)))
        .isInstanceOfSatisfying(
            LDAPException.class, e -> assertThat(e.getResultCode()).isEqualTo(code));
  }

  private static Entry entry(String rdn, String... lines) throws Exception {
    String[] all = new String[lines.length + 1];
    all[0] = "dn: " + rdn + ",dc=example,dc=com";
    System.arraycopy(lines, 0, all, 1, lines.length);
    return new Entry(all);
  }
}
