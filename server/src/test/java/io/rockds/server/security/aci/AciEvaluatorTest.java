package io.rockds.server.security.aci;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.InitialConfig;
import io.rockds.server.security.GlobalAcis;
import java.net.InetAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AciEvaluatorTest {
  private static final Schema SCHEMA = standardSchema();
  private static final DN BASE = AciParserTest.dn("dc=example,dc=com");
  private static final DN ALICE_DN = AciParserTest.dn("uid=alice,ou=People,dc=example,dc=com");
  private static final DN EDITORS = AciParserTest.dn("cn=Editors,ou=Groups,dc=example,dc=com");
  private static final Entry ALICE =
      entry(
          "uid=alice,ou=People,dc=example,dc=com",
          "objectClass: person",
          "cn: Alice",
          "sn: A",
          "userPassword: {SSHA}x",
          "telephoneNumber: 1");
  private static final Entry BOB =
      entry("uid=bob,ou=People,dc=example,dc=com", "objectClass: person", "cn: Bob", "sn: B");
  private static final Entry ROOT_DSE =
      entry("", "objectClass: top", "namingContexts: dc=example,dc=com");
  private static final Entry SCHEMA_ENTRY =
      entry(
          "cn=schema",
          "objectClass: subschema",
          "cn: schema",
          "attributeTypes: ( 2.5.4.3 NAME 'cn' )");

  private final AciEvaluator evaluator =
      new AciEvaluator(
          SCHEMA,
          new DirectoryReader() {
            @Override
            public boolean isMember(DN user, DN group) {
              return group.equals(EDITORS) && user.equals(ALICE_DN);
            }

            @Override
            public Entry get(DN dn) {
              return null;
            }
          },
          new HostNames(),
          Clock.systemDefaultZone());

  // ---------------------------------------------------------------- default global ACIs

  @Test
  void anonymous_reads_the_root_dse_and_the_schema_only() throws Exception {
    Subject anonymous = anonymous();
    assertThat(defaults(anonymous, ROOT_DSE).allowsEntry(Right.READ)).isTrue();
    assertThat(defaults(anonymous, ROOT_DSE).allowsAttribute(Right.READ, "namingContexts"))
        .isTrue();
    assertThat(defaults(anonymous, SCHEMA_ENTRY).allowsAttribute(Right.READ, "attributeTypes"))
        .isTrue();
    assertThat(defaults(anonymous, ALICE).allowsEntry(Right.READ)).isFalse();
    assertThat(defaults(anonymous, ALICE).allowsAttribute(Right.SEARCH, "cn")).isFalse();
  }

  @Test
  void authenticated_users_read_everything_but_passwords() throws Exception {
    EntryAccess access = defaults(user(BOB), ALICE);
    assertThat(access.allowsEntry(Right.READ)).isTrue();
    assertThat(access.allowsAttribute(Right.READ, "cn")).isTrue();
    assertThat(access.allowsAttribute(Right.SEARCH, "telephoneNumber")).isTrue();
    assertThat(access.allowsAttribute(Right.READ, "entryUUID")).isTrue();
    assertThat(access.allowsAttribute(Right.READ, "userPassword")).isFalse();
    assertThat(access.allowsAttribute(Right.SEARCH, "userPassword")).isFalse();
    assertThat(access.allowsAttribute(Right.READ, "authPassword")).isFalse();
    assertThat(access.allowsAttribute(Right.READ, "pwdHistory")).isFalse();
    assertThat(defaults(user(ALICE), ALICE).allowsAttribute(Right.READ, "userPassword")).isFalse();
  }

  @Test
  void users_change_their_own_password_only() throws Exception {
    assertThat(defaults(user(ALICE), ALICE).allowsAttribute(Right.WRITE, "userPassword")).isTrue();
    assertThat(defaults(user(ALICE), ALICE).allowsAttribute(Right.WRITE, "userPassword;x"))
        .isTrue();
    assertThat(defaults(user(ALICE), ALICE).allowsAttribute(Right.WRITE, "cn")).isFalse();
    assertThat(defaults(user(BOB), ALICE).allowsAttribute(Right.WRITE, "userPassword")).isFalse();
    assertThat(defaults(anonymous(), ALICE).allowsAttribute(Right.WRITE, "userPassword")).isFalse();
  }

  @Test
  void nobody_adds_or_deletes_by_default() throws Exception {
    assertThat(defaults(user(ALICE), BOB).allowsEntry(Right.ADD)).isFalse();
    assertThat(defaults(user(ALICE), ALICE).allowsEntry(Right.DELETE)).isFalse();
    assertThat(defaults(anonymous(), BOB).allowsEntry(Right.ADD)).isFalse();
  }

  @Test
  void anonymous_read_switch_opens_everything_but_passwords() throws Exception {
    List<Aci> acis = new ArrayList<>(parseAll(InitialConfig.GLOBAL_ACIS));
    acis.addAll(parseAll(GlobalAcis.ANONYMOUS_READ));
    EntryAccess access = evaluator.evaluate(anonymous(), ALICE, acis);
    assertThat(access.allowsEntry(Right.READ)).isTrue();
    assertThat(access.allowsAttribute(Right.READ, "cn")).isTrue();
    assertThat(access.allowsAttribute(Right.READ, "userPassword")).isFalse();
    assertThat(access.allowsAttribute(Right.WRITE, "cn")).isFalse();
  }

  // ---------------------------------------------------------------- ACI semantics

  @Test
  void deny_beats_allow() throws Exception {
    List<Aci> acis =
        List.of(
            aci(
                "(targetattr=\"*\")(version 3.0; acl \"read\"; allow (read) userdn=\"ldap:///all\";)"),
            aci(
                "(targetattr=\"telephoneNumber\")(version 3.0; acl \"hide\"; deny (read) userdn=\"ldap:///uid=bob,ou=People,dc=example,dc=com\";)"));
    assertThat(
            evaluator
                .evaluate(user(BOB), ALICE, acis)
                .allowsAttribute(Right.READ, "telephoneNumber"))
        .isFalse();
    assertThat(evaluator.evaluate(user(BOB), ALICE, acis).allowsAttribute(Right.READ, "cn"))
        .isTrue();
    assertThat(evaluator.evaluate(user(BOB), ALICE, acis).allowsEntry(Right.READ)).isTrue();
    assertThat(
            evaluator
                .evaluate(user(ALICE), ALICE, acis)
                .allowsAttribute(Right.READ, "telephoneNumber"))
        .isTrue();
  }

  @Test
  void deny_of_all_attributes_hides_the_entry() throws Exception {
    List<Aci> acis =
        List.of(
            aci(
                "(targetattr=\"*\")(version 3.0; acl \"read\"; allow (read) userdn=\"ldap:///all\";)"),
            aci(
                "(target=\"ldap:///uid=alice,ou=People,dc=example,dc=com\")(version 3.0; acl \"hide\"; deny (read) userdn=\"ldap:///anyone\";)"));
    assertThat(evaluator.evaluate(user(BOB), ALICE, acis).allowsEntry(Right.READ)).isFalse();
    assertThat(evaluator.evaluate(user(BOB), BOB, acis).allowsEntry(Right.READ)).isTrue();
  }

  @Test
  void no_targetattr_gives_entry_rights_only() throws Exception {
    List<Aci> acis =
        List.of(aci("(version 3.0; acl \"add\"; allow (add,write) userdn=\"ldap:///all\";)"));
    assertThat(evaluator.evaluate(user(BOB), ALICE, acis).allowsEntry(Right.ADD)).isTrue();
    assertThat(evaluator.evaluate(user(BOB), ALICE, acis).allowsAttribute(Right.WRITE, "cn"))
        .isFalse();
  }

  @Test
  void entry_aci_covers_its_subtree_narrowed_by_target_and_scope() throws Exception {
    DN people = AciParserTest.dn("ou=People,dc=example,dc=com");
    Aci subtree =
        Aci.parse(
            "(targetattr=\"cn\")(version 3.0; acl \"s\"; allow (write) userdn=\"ldap:///all\";)",
            people);
    Aci base =
        Aci.parse(
            "(targetscope=\"base\")(targetattr=\"cn\")(version 3.0; acl \"b\"; allow (write) userdn=\"ldap:///all\";)",
            people);
    Aci elsewhere =
        Aci.parse(
            "(targetattr=\"cn\")(version 3.0; acl \"e\"; allow (write) userdn=\"ldap:///all\";)",
            AciParserTest.dn("ou=Groups,dc=example,dc=com"));
    assertThat(
            evaluator
                .evaluate(user(BOB), ALICE, List.of(subtree))
                .allowsAttribute(Right.WRITE, "cn"))
        .isTrue();
    assertThat(
            evaluator.evaluate(user(BOB), ALICE, List.of(base)).allowsAttribute(Right.WRITE, "cn"))
        .isFalse();
    assertThat(
            evaluator
                .evaluate(user(BOB), ALICE, List.of(elsewhere))
                .allowsAttribute(Right.WRITE, "cn"))
        .isFalse();
    Aci wildcard =
        aci(
            "(target=\"ldap:///uid=a*,ou=People,dc=example,dc=com\")(targetattr=\"cn\")(version 3.0; acl \"w\"; allow (write) userdn=\"ldap:///all\";)");
    assertThat(
            evaluator
                .evaluate(user(BOB), ALICE, List.of(wildcard))
                .allowsAttribute(Right.WRITE, "cn"))
        .isTrue();
    assertThat(
            evaluator
                .evaluate(user(BOB), BOB, List.of(wildcard))
                .allowsAttribute(Right.WRITE, "cn"))
        .isFalse();
  }

  @Test
  void targetfilter_selects_entries() throws Exception {
    Aci aci =
        aci(
            "(targetfilter=\"(telephoneNumber=*)\")(targetattr=\"cn\")(version 3.0; acl \"f\"; allow (write) userdn=\"ldap:///all\";)");
    assertThat(
            evaluator.evaluate(user(BOB), ALICE, List.of(aci)).allowsAttribute(Right.WRITE, "cn"))
        .isTrue();
    assertThat(
            evaluator.evaluate(user(ALICE), BOB, List.of(aci)).allowsAttribute(Right.WRITE, "cn"))
        .isFalse();
  }

  @Test
  void bind_rules_userdn_groupdn_authmethod_ip_and_combinations() throws Exception {
    Aci group =
        aci(
            "(targetattr=\"cn\")(version 3.0; acl \"g\"; allow (write) groupdn=\"ldap:///"
                + EDITORS
                + "\";)");
    assertThat(
            evaluator.evaluate(user(ALICE), BOB, List.of(group)).allowsAttribute(Right.WRITE, "cn"))
        .isTrue();
    assertThat(
            evaluator.evaluate(user(BOB), BOB, List.of(group)).allowsAttribute(Right.WRITE, "cn"))
        .isFalse();

    Aci combined =
        aci(
            "(targetattr=\"cn\")(version 3.0; acl \"c\"; allow (write) userdn=\"ldap:///all\""
                + " and (ip=\"10.0.0.0/8\" or authmethod=\"ssl\");)");
    Subject tls =
        new Subject(BOB.getParsedDN(), "sasl EXTERNAL", InetAddress.getByName("192.0.2.1"), 256);
    Subject inside = new Subject(BOB.getParsedDN(), "simple", InetAddress.getByName("10.1.2.3"), 0);
    Subject outside =
        new Subject(BOB.getParsedDN(), "simple", InetAddress.getByName("192.0.2.1"), 0);
    assertThat(evaluator.evaluate(tls, ALICE, List.of(combined)).allowsAttribute(Right.WRITE, "cn"))
        .isTrue();
    assertThat(
            evaluator.evaluate(inside, ALICE, List.of(combined)).allowsAttribute(Right.WRITE, "cn"))
        .isTrue();
    assertThat(
            evaluator
                .evaluate(outside, ALICE, List.of(combined))
                .allowsAttribute(Right.WRITE, "cn"))
        .isFalse();

    Aci wildcardIp =
        aci("(targetattr=\"cn\")(version 3.0; acl \"i\"; allow (write) ip=\"127.0.0.*\";)");
    assertThat(
            evaluator
                .evaluate(user(BOB), ALICE, List.of(wildcardIp))
                .allowsAttribute(Right.WRITE, "cn"))
        .isTrue();
    assertThat(
            evaluator
                .evaluate(outside, ALICE, List.of(wildcardIp))
                .allowsAttribute(Right.WRITE, "cn"))
        .isFalse();

    Aci notSelf =
        aci(
            "(targetattr=\"cn\")(version 3.0; acl \"n\"; allow (write) userdn=\"ldap:///all\" and not userdn=\"ldap:///self\";)");
    assertThat(
            evaluator
                .evaluate(user(BOB), ALICE, List.of(notSelf))
                .allowsAttribute(Right.WRITE, "cn"))
        .isTrue();
    assertThat(
            evaluator
                .evaluate(user(ALICE), ALICE, List.of(notSelf))
                .allowsAttribute(Right.WRITE, "cn"))
        .isFalse();

    Aci pattern =
        aci(
            "(targetattr=\"cn\")(version 3.0; acl \"p\"; allow (write) userdn=\"ldap:///uid=b*,ou=People,dc=example,dc=com\";)");
    assertThat(
            evaluator
                .evaluate(user(BOB), ALICE, List.of(pattern))
                .allowsAttribute(Right.WRITE, "cn"))
        .isTrue();
    assertThat(
            evaluator
                .evaluate(user(ALICE), ALICE, List.of(pattern))
                .allowsAttribute(Right.WRITE, "cn"))
        .isFalse();
  }

  @Test
  void all_does_not_include_proxy() throws Exception {
    Aci all =
        aci("(targetattr=\"*\")(version 3.0; acl \"all\"; allow (all) userdn=\"ldap:///all\";)");
    assertThat(evaluator.evaluate(user(BOB), ALICE, List.of(all)).allowsEntry(Right.PROXY))
        .isFalse();
    assertThat(evaluator.evaluate(user(BOB), ALICE, List.of(all)).allowsEntry(Right.DELETE))
        .isTrue();
  }

  // ---------------------------------------------------------------- helpers

  private EntryAccess defaults(Subject subject, Entry entry) throws Exception {
    return evaluator.evaluate(subject, entry, parseAll(InitialConfig.GLOBAL_ACIS));
  }

  private static List<Aci> parseAll(List<String> texts) throws AciSyntaxException {
    List<Aci> acis = new ArrayList<>();
    for (String t : texts) {
      acis.add(Aci.parse(t, null));
    }
    return acis;
  }

  private static Aci aci(String text) throws AciSyntaxException {
    return Aci.parse(text, BASE);
  }

  private static Subject anonymous() {
    return new Subject(DN.NULL_DN, "none", InetAddress.getLoopbackAddress(), 0);
  }

  private static Subject user(Entry entry) throws Exception {
    return new Subject(entry.getParsedDN(), "simple", InetAddress.getLoopbackAddress(), 0);
  }

  private static Schema standardSchema() {
    try {
      return Schema.getDefaultStandardSchema();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Entry entry(String dn, String... lines) {
    List<String> ldif = new ArrayList<>(List.of("dn: " + dn));
    ldif.addAll(List.of(lines));
    try {
      return new Entry(ldif.toArray(String[]::new));
    } catch (Exception e) {
      throw new IllegalArgumentException(dn, e);
    }
  }
}
