package io.rockds.server.group;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import io.rockds.server.schema.SchemaLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReferentialIntegrityTest {
  private static final List<String> MEMBERS = List.of("member", "uniqueMember");

  @Test
  void rewrite_replacesOrDropsTheDnWhateverItsSpelling() throws Exception {
    Entry group =
        new Entry(
            "dn: cn=g,dc=example,dc=com",
            "objectClass: groupOfNames",
            "cn: g",
            "member: UID=a, ou=People,dc=example,dc=com",
            "member: uid=b,ou=People,dc=example,dc=com");
    ReferentialIntegrity.rewrite(
        group,
        MEMBERS,
        new DN("uid=a,ou=People,dc=example,dc=com"),
        new DN("uid=z,ou=People,dc=example,dc=com"));
    assertThat(group.getAttributeValues("member"))
        .containsExactlyInAnyOrder(
            "uid=b,ou=People,dc=example,dc=com", "uid=z,ou=People,dc=example,dc=com");
    ReferentialIntegrity.rewrite(group, MEMBERS, new DN("uid=b,ou=People,dc=example,dc=com"), null);
    ReferentialIntegrity.rewrite(group, MEMBERS, new DN("uid=z,ou=People,dc=example,dc=com"), null);
    assertThat(group.hasAttribute("member")).isFalse();
  }

  @Test
  void memberUrl_selectsByBaseScopeAndFilter() throws Exception {
    Entry group =
        new Entry(
            "dn: cn=d,dc=example,dc=com",
            "objectClass: groupOfURLs",
            "cn: d",
            "memberURL: ldap:///ou=People,dc=example,dc=com??one?(departmentNumber=7)",
            "memberURL: not a url");
    Entry seven =
        new Entry(
            "dn: uid=a,ou=People,dc=example,dc=com",
            "objectClass: inetOrgPerson",
            "departmentNumber: 7");
    Entry deeper =
        new Entry(
            "dn: uid=a,ou=X,ou=People,dc=example,dc=com",
            "objectClass: inetOrgPerson",
            "departmentNumber: 7");
    Entry eight =
        new Entry(
            "dn: uid=b,ou=People,dc=example,dc=com",
            "objectClass: inetOrgPerson",
            "departmentNumber: 8");
    var schema = SchemaLoader.standard();
    assertThat(Groups.selects(group, seven, schema)).isTrue();
    assertThat(Groups.selects(group, deeper, schema)).isFalse();
    assertThat(Groups.selects(group, eight, schema)).isFalse();
  }
}
