package io.rockds.server.security.aci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.InitialConfig;
import io.rockds.server.security.GlobalAcis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AciParserTest {
  private static final DN HOLDER = dn("dc=example,dc=com");

  /** Examples from OpenDJ's documentation and default configuration. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "(targetattr=\"*\")(version 3.0; acl \"Allow anonymous read\"; allow (read,search,compare) userdn=\"ldap:///anyone\";)",
        "(targetattr!=\"userPassword||authPassword\")(version 3.0; acl \"Anonymous read access\"; allow (read,search,compare) userdn=\"ldap:///anyone\";)",
        "(targetattr=\"userPassword\")(version 3.0; acl \"Self entry modification\"; allow (write) userdn=\"ldap:///self\";)",
        "(target=\"ldap:///ou=People,dc=example,dc=com\")(targetattr=\"description||telephoneNumber\")(version 3.0;acl \"Editors\"; allow (write) groupdn=\"ldap:///cn=Editors,ou=Groups,dc=example,dc=com\";)",
        "(target=\"ldap:///uid=*,ou=People,dc=example,dc=com\")(targetattr=\"*||+\")(targetscope=\"base\")(version 3.0; acl \"wildcard\"; allow (all) userdn=\"ldap:///uid=admin*,ou=People,dc=example,dc=com\";)",
        "(targetfilter=\"(objectClass=person)\")(targetattr=\"cn\")(version 3.0; acl \"f\"; deny (read) userdn!=\"ldap:///all\";)",
        "(targetattr=\"*\")(version 3.0; acl \"combined\"; allow (read) (userdn=\"ldap:///all\" and authmethod=\"ssl\") or ip=\"127.0.0.1, 10.0.0.0/8, 192.168.1.*\";)",
        "(version 3.0; acl \"proxy\"; allow (proxy) userdn=\"ldap:///uid=app,ou=Apps,dc=example,dc=com || ldap:///uid=app2,ou=Apps,dc=example,dc=com\";)",
        "(targetattr=\"*\")(version 3.0; acl \"two permissions\"; allow (read) userdn=\"ldap:///all\"; deny (write) not userdn=\"ldap:///self\";)",
        "(target!=\"ldap:///ou=Private,dc=example,dc=com\")(targetscope=\"subordinate\")(targetattr=\"+\")(version 3.0; acl \"ops\"; allow (read, search) authmethod=\"sasl EXTERNAL\";)",
        "(targetattr=\"*\")(version 3.0; acl \"manager\"; allow (write) userattr=\"manager#USERDN\";)",
        "(targetattr=\"*\")(version 3.0; acl \"owners\"; allow (write) userattr=\"parent[0,1].owner#GROUPDN\" or userattr=\"seeAlso#ROLEDN\";)",
        "(targetattr=\"*\")(version 3.0; acl \"url\"; allow (read) userattr=\"labeledURI#LDAPURL\";)",
        "(targetattr=\"*\")(version 3.0; acl \"same ou\"; allow (read) userattr=\"ou#Sales\";)",
        "(targetattr=\"*\")(version 3.0; acl \"role\"; allow (read) roledn=\"ldap:///cn=Auditors,ou=Groups,dc=example,dc=com\";)",
        "(targetattr=\"*\")(version 3.0; acl \"hosts\"; allow (read) dns=\"localhost, *.example.com\";)",
        "(targetattr=\"*\")(version 3.0; acl \"office hours\"; allow (read) dayofweek=\"Mon,tue,wed,thu,fri\" and timeofday>=\"0800\" and timeofday<\"1800\";)",
        "(targetattr=\"*\")(version 3.0; acl \"encrypted\"; allow (read) ssf>=\"128\" and ssf != \"0\";)"
      })
  void parses_opendj_examples(String text) throws Exception {
    Aci aci = Aci.parse(text, HOLDER);
    assertThat(aci.permissions()).isNotEmpty();
    assertThat(aci.holder()).isEqualTo(HOLDER);
  }

  @Test
  void keeps_name_rights_and_scope() throws Exception {
    Aci aci =
        Aci.parse(
            "(targetscope=\"onelevel\")(targetattr=\"cn\")(version 3.0; acl \"My ACI\";"
                + " allow (all) userdn=\"ldap:///anyone\"; deny(proxy) userdn=\"ldap:///self\";)",
            HOLDER);
    assertThat(aci.name()).isEqualTo("My ACI");
    assertThat(aci.targets().scope()).isEqualTo(TargetScope.ONE_LEVEL);
    assertThat(aci.permissions().get(0).allow()).isTrue();
    assertThat(aci.permissions().get(0).rights())
        .containsExactlyInAnyOrderElementsOf(Right.ALL)
        .doesNotContain(Right.PROXY);
    assertThat(aci.permissions().get(1).allow()).isFalse();
    assertThat(aci.permissions().get(1).rights()).containsExactly(Right.PROXY);
  }

  @Test
  void default_global_acis_parse() throws Exception {
    for (String text : InitialConfig.GLOBAL_ACIS) {
      Aci.parse(text, null);
    }
    for (String text : GlobalAcis.ANONYMOUS_READ) {
      Aci.parse(text, null);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "(targetattr=\"*\")",
        "(targetattr=\"*\")(version 2.0; acl \"v\"; allow (read) userdn=\"ldap:///anyone\";)",
        "(targetattr=\"*\")(version 3.0; acl \"no permission\";)",
        "(targetattr=\"*\")(version 3.0; acl \"bad right\"; allow (fly) userdn=\"ldap:///anyone\";)",
        "(targetattr=\"*\")(version 3.0; acl \"bad keyword\"; allow (read) username=\"ldap:///anyone\";)",
        "(targetattr=\"*\")(version 3.0; acl \"bad day\"; allow (read) dayofweek=\"sunday\";)",
        "(targetattr=\"*\")(version 3.0; acl \"bad time\"; allow (read) timeofday=\"2460\";)",
        "(targetattr=\"*\")(version 3.0; acl \"short time\"; allow (read) timeofday=\"800\";)",
        "(targetattr=\"*\")(version 3.0; acl \"bad ssf\"; allow (read) ssf>=\"2048\";)",
        "(targetattr=\"*\")(version 3.0; acl \"ordered userdn\"; allow (read) userdn>=\"ldap:///all\";)",
        "(targetattr=\"*\")(version 3.0; acl \"no type\"; allow (read) userattr=\"manager\";)",
        "(targetattr=\"*\")(version 3.0; acl \"inherited value\"; allow (read) userattr=\"parent[1].ou#Sales\";)",
        "(targetattr=\"*\")(version 3.0; acl \"bad level\"; allow (read) userattr=\"parent[10].manager#USERDN\";)",
        "(targetattr=\"*\")(version 3.0; acl \"bad host\"; allow (read) dns=\"bad host!\";)",
        "(targetattr=\"*\")(version 3.0; acl \"inner wildcard\"; allow (read) dns=\"www.*.com\";)",
        "(targetattr=\"*\")(version 3.0; acl \"no semicolon\"; allow (read) userdn=\"ldap:///anyone\")",
        "(targetattr=\"*\")(version 3.0; acl \"unterminated; allow (read) userdn=\"ldap:///anyone\";)",
        "(target=\"dc=example,dc=com\")(version 3.0; acl \"not a URL\"; allow (read) userdn=\"ldap:///anyone\";)",
        "(target=\"ldap:///not a dn\")(version 3.0; acl \"bad dn\"; allow (read) userdn=\"ldap:///anyone\";)",
        "(targetfilter=\"(cn=\")(version 3.0; acl \"bad filter\"; allow (read) userdn=\"ldap:///anyone\";)",
        "(targetscope=\"everywhere\")(version 3.0; acl \"bad scope\"; allow (read) userdn=\"ldap:///anyone\";)",
        "(targetattr=\"c n\")(version 3.0; acl \"bad attr\"; allow (read) userdn=\"ldap:///anyone\";)",
        "(targetattr!=\"*\")(version 3.0; acl \"negated star\"; allow (read) userdn=\"ldap:///anyone\";)",
        "(targattrfilters=\"add=cn:(cn=a)\")(version 3.0; acl \"unsupported target\"; allow (read) userdn=\"ldap:///anyone\";)",
        "(targetattr=\"*\")(version 3.0; acl \"bad ip\"; allow (read) ip=\"300.1.1.1\";)",
        "(targetattr=\"*\")(version 3.0; acl \"host name\"; allow (read) ip=\"localhost\";)",
        "(targetattr=\"*\")(version 3.0; acl \"bad auth\"; allow (read) authmethod=\"kerberos\";)",
        "(targetattr=\"*\")(version 3.0; acl \"url filter\"; allow (read) userdn=\"ldap:///dc=example,dc=com??sub?(uid=a)\";)",
        "(targetattr=\"*\")(version 3.0; acl \"dangling and\"; allow (read) userdn=\"ldap:///all\" and;)",
        "(targetattr=\"*\")(version 3.0; acl \"trailing\"; allow (read) userdn=\"ldap:///all\";) extra",
        "(targetattr=\"*\")(targetattr=\"cn\")(version 3.0; acl \"twice\"; allow (read) userdn=\"ldap:///all\";)"
      })
  void refuses_invalid_acis_with_invalid_attribute_syntax(String text) {
    assertThatThrownBy(() -> Aci.parse(text, HOLDER))
        .isInstanceOfSatisfying(
            AciSyntaxException.class,
            e ->
                assertThat(e.toLdapException(text).getResultCode())
                    .isEqualTo(ResultCode.INVALID_ATTRIBUTE_SYNTAX));
  }

  @Test
  void refuses_bind_rules_nested_too_deep() {
    String rule = "(".repeat(100) + "userdn=\"ldap:///all\"" + ")".repeat(100);
    assertThatThrownBy(
            () ->
                Aci.parse(
                    "(targetattr=\"*\")(version 3.0; acl \"deep\"; allow (read) " + rule + ";)",
                    HOLDER))
        .isInstanceOf(AciSyntaxException.class)
        .hasMessageContaining("nested");
  }

  static DN dn(String s) {
    try {
      return new DN(s);
    } catch (Exception e) {
      throw new IllegalArgumentException(s, e);
    }
  }
}
