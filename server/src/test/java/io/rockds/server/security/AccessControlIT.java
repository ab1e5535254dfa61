package io.rockds.server.security;

import static io.rockds.server.security.SecurityFixture.ADMIN;
import static io.rockds.server.security.SecurityFixture.ADMIN_PASSWORD;
import static io.rockds.server.security.SecurityFixture.ALICE;
import static io.rockds.server.security.SecurityFixture.ALICE_PASSWORD;
import static io.rockds.server.security.SecurityFixture.BOB;
import static io.rockds.server.security.SecurityFixture.BOB_PASSWORD;
import static io.rockds.server.security.SecurityFixture.CAROL;
import static io.rockds.server.security.SecurityFixture.CAROL_PASSWORD;
import static io.rockds.server.security.SecurityFixture.EDITORS;
import static io.rockds.server.security.SecurityFixture.PEOPLE;
import static io.rockds.server.security.SecurityFixture.bind;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ProxiedAuthorizationV2RequestControl;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Access control over LDAP with the default global ACIs: for every default rule an allowed and a
 * refused case, entry ACIs and their cache, privileges and proxied authorization.
 */
class AccessControlIT {
  @TempDir static Path dir;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(dir, SecurityFixture.entries());
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  // ---------------------------------------------------------------- anonymous

  @Test
  void anonymous_reads_the_root_dse() throws Exception {
    try (LDAPConnection anonymous = server.anonymousConnection()) {
      SearchResultEntry rootDse = anonymous.getEntry("", "namingContexts");
      assertThat(rootDse).isNotNull();
      assertThat(rootDse.getAttributeValues("namingContexts")).contains(TestServer.BASE);
    }
  }

  @Test
  void anonymous_sees_no_entry_of_the_backend() throws Exception {
    try (LDAPConnection anonymous = server.anonymousConnection()) {
      SearchResult result = anonymous.search(TestServer.BASE, SearchScope.SUB, "(objectClass=top)");
      assertThat(result.getResultCode()).isEqualTo(ResultCode.SUCCESS);
      assertThat(result.getEntryCount()).isZero();
      assertCode(
          () -> anonymous.compare(ALICE, "cn", "alice"), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  @Test
  void anonymous_writes_are_refused() throws Exception {
    try (LDAPConnection anonymous = server.anonymousConnection()) {
      assertCode(
          () -> anonymous.add(SecurityFixture.person("mallory", "mallory-password")),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertCode(
          () ->
              anonymous.modify(BOB, new Modification(ModificationType.REPLACE, "description", "x")),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertCode(
          () ->
              anonymous.modify(
                  BOB, new Modification(ModificationType.REPLACE, "userPassword", "x1234567")),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertCode(() -> anonymous.delete(CAROL), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertCode(
          () -> anonymous.modifyDN(CAROL, "uid=carol2", true),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  // ---------------------------------------------------------------- authenticated users

  @Test
  void authenticated_users_read_and_search_everything_but_passwords() throws Exception {
    try (LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD)) {
      SearchResultEntry bob = alice.searchForEntry(PEOPLE, SearchScope.SUB, "(uid=bob)", "*", "+");
      assertThat(bob).isNotNull();
      assertThat(bob.getAttributeValue("cn")).isEqualTo("bob");
      assertThat(bob.getAttributeValue("entryUUID")).isNotNull();
      assertThat(bob.hasAttribute("userPassword")).isFalse();
      SearchResultEntry self = read(alice, ALICE, "userPassword", "cn");
      assertThat(self.hasAttribute("cn")).isTrue();
      assertThat(self.hasAttribute("userPassword")).isFalse();
      assertThat(alice.compare(BOB, "cn", "bob").compareMatched()).isTrue();
    }
  }

  @Test
  void searching_or_comparing_passwords_is_refused() throws Exception {
    try (LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD)) {
      assertThat(
              alice
                  .search(PEOPLE, SearchScope.SUB, "(&(objectClass=person)(userPassword=*))")
                  .getEntryCount())
          .isZero();
      assertThat(
              alice.search(PEOPLE, SearchScope.SUB, "(&(uid=bob)(userPassword=*))").getEntryCount())
          .isZero();
      assertCode(
          () -> alice.compare(BOB, "userPassword", BOB_PASSWORD),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  @Test
  void root_reads_passwords() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      assertThat(read(root, BOB, "userPassword").getAttributeValue("userPassword"))
          .startsWith("{SSHA512}");
    }
  }

  @Test
  void users_change_their_own_password_and_nothing_else() throws Exception {
    try (LDAPConnection carol = bind(server, CAROL, CAROL_PASSWORD)) {
      carol.modify(
          CAROL, new Modification(ModificationType.REPLACE, "userPassword", "carol-password-2"));
      assertCode(
          () ->
              carol.modify(CAROL, new Modification(ModificationType.REPLACE, "description", "me")),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertCode(
          () ->
              carol.modify(
                  BOB, new Modification(ModificationType.REPLACE, "userPassword", "stolen-pass")),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertCode(
          () -> carol.add(SecurityFixture.person("dave", "dave-password")),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertCode(() -> carol.delete(BOB), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
    try (LDAPConnection carol = bind(server, CAROL, "carol-password-2")) {
      carol.modify(
          CAROL, new Modification(ModificationType.REPLACE, "userPassword", CAROL_PASSWORD));
    }
  }

  @Test
  void only_config_privileges_touch_cn_config() throws Exception {
    try (LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD);
        LDAPConnection root = server.rootConnection()) {
      assertCode(
          () ->
              alice.modify(
                  "cn=config",
                  new Modification(ModificationType.REPLACE, "ds-cfg-size-limit", "1")),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertCode(
          () -> alice.delete("cn=Access Control Handler,cn=config"),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      // The root DN holds config-write: access control lets it through to whatever serves
      // cn=config.
      LDAPResult rootResult =
          result(
              () ->
                  root.modify(
                      "cn=config",
                      new Modification(ModificationType.REPLACE, "ds-cfg-size-limit", "1000")));
      assertThat(rootResult.getResultCode()).isNotEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  // ---------------------------------------------------------------- entry ACIs

  @Test
  void entry_aci_takes_effect_at_once_and_is_revoked_at_once() throws Exception {
    String aci =
        "(targetattr=\"description\")(version 3.0; acl \"Editors edit descriptions\"; allow (write)"
            + " groupdn=\"ldap:///"
            + EDITORS
            + "\";)";
    Modification describe = new Modification(ModificationType.REPLACE, "description", "edited");
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD);
        LDAPConnection bob = bind(server, BOB, BOB_PASSWORD)) {
      assertCode(() -> alice.modify(CAROL, describe), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      root.modify(PEOPLE, new Modification(ModificationType.ADD, "aci", aci));
      alice.modify(CAROL, describe);
      assertCode(() -> bob.modify(CAROL, describe), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      root.modify(PEOPLE, new Modification(ModificationType.DELETE, "aci", aci));
      assertCode(() -> alice.modify(CAROL, describe), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  @Test
  void entry_acis_follow_their_holder_when_it_is_renamed() throws Exception {
    String ou = "ou=Moving," + TestServer.BASE;
    String aci =
        "(targetattr=\"description\")(version 3.0; acl \"alice edits\"; allow (write)"
            + " userdn=\"ldap:///"
            + ALICE
            + "\";)";
    Modification describe = new Modification(ModificationType.REPLACE, "description", "moved");
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD)) {
      root.add(
          new Entry(
              "dn: " + ou,
              "objectClass: top",
              "objectClass: organizationalUnit",
              "ou: Moving",
              "aci: " + aci));
      root.add(
          new Entry("dn: cn=child," + ou, "objectClass: top", "objectClass: device", "cn: child"));
      alice.modify("cn=child," + ou, describe);
      root.modifyDN(ou, "ou=Moved", true);
      String moved = "cn=child,ou=Moved," + TestServer.BASE;
      alice.modify(moved, describe);
      root.modify("ou=Moved," + TestServer.BASE, new Modification(ModificationType.DELETE, "aci"));
      assertCode(() -> alice.modify(moved, describe), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  @Test
  void deny_beats_allow_and_strips_the_attribute() throws Exception {
    String ou = "ou=Deny," + TestServer.BASE;
    String aci =
        "(targetattr=\"telephoneNumber\")(version 3.0; acl \"Hide phones from bob\"; deny (read,search)"
            + " userdn=\"ldap:///"
            + BOB
            + "\";)";
    try (LDAPConnection root = server.rootConnection()) {
      root.add(
          new Entry(
              "dn: " + ou,
              "objectClass: top",
              "objectClass: organizationalUnit",
              "ou: Deny",
              "aci: " + aci));
      root.add(
          new Entry(
              "dn: uid=phoned," + ou,
              "objectClass: top",
              "objectClass: person",
              "objectClass: inetOrgPerson",
              "uid: phoned",
              "cn: p",
              "sn: p",
              "telephoneNumber: 42"));
      try (LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD);
          LDAPConnection bob = bind(server, BOB, BOB_PASSWORD)) {
        assertThat(read(alice, "uid=phoned," + ou).getAttributeValue("telephoneNumber"))
            .isEqualTo("42");
        SearchResultEntry seenByBob = read(bob, "uid=phoned," + ou);
        assertThat(seenByBob).isNotNull();
        assertThat(seenByBob.hasAttribute("telephoneNumber")).isFalse();
        assertThat(bob.search(ou, SearchScope.SUB, "(telephoneNumber=42)").getEntryCount())
            .isZero();
      }
    }
  }

  @Test
  void invalid_aci_is_refused_with_invalid_attribute_syntax() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      assertCode(
          () ->
              root.modify(
                  PEOPLE,
                  new Modification(
                      ModificationType.ADD,
                      "aci",
                      "(targetattr=\"*\")(version 3.0; acl \"broken\"; allow (fly) userdn=\"ldap:///anyone\";)")),
          ResultCode.INVALID_ATTRIBUTE_SYNTAX);
      assertCode(
          () ->
              root.add(
                  new Entry(
                      "dn: ou=Bad," + TestServer.BASE,
                      "objectClass: top",
                      "objectClass: organizationalUnit",
                      "ou: Bad",
                      "aci: (targetattr=\"*\")(version 3.0; acl \"x\";)")),
          ResultCode.INVALID_ATTRIBUTE_SYNTAX);
    }
  }

  // ---------------------------------------------------------------- privileges

  @Test
  void privilege_change_guards_ds_privilege_name() throws Exception {
    String aci =
        "(targetattr=\"ds-privilege-name\")(version 3.0; acl \"self privileges\"; allow (write)"
            + " userdn=\"ldap:///self\";)";
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(PEOPLE, new Modification(ModificationType.ADD, "aci", aci));
      try (LDAPConnection bob = bind(server, BOB, BOB_PASSWORD)) {
        assertCode(
            () ->
                bob.modify(
                    BOB, new Modification(ModificationType.ADD, "ds-privilege-name", "bypass-acl")),
            ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      } finally {
        root.modify(PEOPLE, new Modification(ModificationType.DELETE, "aci", aci));
      }
    }
  }

  @Test
  void unindexed_search_needs_its_privilege_which_root_can_grant() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      // As in OpenDJ, a scope smaller than the lookthrough limit narrows the candidates, so the
      // search only counts as unindexed once the scope is larger than that limit: make it tiny.
      root.modify(
          "cn=config", new Modification(ModificationType.REPLACE, "ds-cfg-lookthrough-limit", "2"));
      try {
        try (LDAPConnection bob = bind(server, BOB, BOB_PASSWORD)) {
          assertCode(
              () -> bob.search(PEOPLE, SearchScope.SUB, "(description=*)"),
              ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        }
        root.modify(
            BOB, new Modification(ModificationType.ADD, "ds-privilege-name", "unindexed-search"));
        try (LDAPConnection bob = bind(server, BOB, BOB_PASSWORD)) {
          // Allowed now: it runs, and stops at the lookthrough limit rather than being refused.
          assertCode(
              () -> bob.search(PEOPLE, SearchScope.SUB, "(description=*)"),
              ResultCode.ADMIN_LIMIT_EXCEEDED);
        } finally {
          root.modify(
              BOB,
              new Modification(ModificationType.DELETE, "ds-privilege-name", "unindexed-search"));
        }
      } finally {
        root.modify(
            "cn=config",
            new Modification(ModificationType.REPLACE, "ds-cfg-lookthrough-limit", "5000"));
      }
    }
  }

  @Test
  void resetting_another_password_needs_password_reset_and_the_write_right() throws Exception {
    String aci =
        "(targetattr=\"userPassword\")(version 3.0; acl \"helpdesk\"; allow (write)"
            + " userdn=\"ldap:///"
            + ADMIN
            + " || ldap:///"
            + ALICE
            + "\";)";
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(PEOPLE, new Modification(ModificationType.ADD, "aci", aci));
      try (LDAPConnection admin = bind(server, ADMIN, ADMIN_PASSWORD);
          LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD)) {
        admin.modify(
            CAROL, new Modification(ModificationType.REPLACE, "userPassword", CAROL_PASSWORD));
        assertCode(
            () ->
                alice.modify(
                    CAROL,
                    new Modification(ModificationType.REPLACE, "userPassword", "hijacked-1")),
            ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      } finally {
        root.modify(PEOPLE, new Modification(ModificationType.DELETE, "aci", aci));
      }
    }
  }

  // ---------------------------------------------------------------- proxied authorization

  @Test
  void proxied_authorization_runs_as_the_target_when_allowed() throws Exception {
    String aci =
        "(target=\"ldap:///"
            + ALICE
            + "\")(version 3.0; acl \"admin proxies as alice\"; allow (proxy)"
            + " userdn=\"ldap:///"
            + ADMIN
            + " || ldap:///"
            + CAROL
            + "\";)";
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(PEOPLE, new Modification(ModificationType.ADD, "aci", aci));
      try (LDAPConnection admin = bind(server, ADMIN, ADMIN_PASSWORD);
          LDAPConnection carol = bind(server, CAROL, CAROL_PASSWORD)) {
        // As alice, the admin may change alice's own password (the self rule), which it may not do
        // as itself.
        ModifyRequest asAlice =
            new ModifyRequest(
                ALICE, new Modification(ModificationType.REPLACE, "userPassword", ALICE_PASSWORD));
        asAlice.addControl(new ProxiedAuthorizationV2RequestControl("dn:" + ALICE));
        assertThat(admin.modify(asAlice).getResultCode()).isEqualTo(ResultCode.SUCCESS);
        SearchRequest byUid = new SearchRequest(PEOPLE, SearchScope.SUB, "(uid=bob)");
        byUid.addControl(new ProxiedAuthorizationV2RequestControl("u:alice"));
        assertThat(admin.search(byUid).getEntryCount()).isEqualTo(1);

        ModifyRequest asBob =
            new ModifyRequest(BOB, new Modification(ModificationType.REPLACE, "description", "b"));
        asBob.addControl(new ProxiedAuthorizationV2RequestControl("dn:" + BOB));
        assertCode(() -> admin.modify(asBob), ResultCode.AUTHORIZATION_DENIED);
        ModifyRequest carolAsAlice = asAlice.duplicate();
        assertCode(() -> carol.modify(carolAsAlice), ResultCode.AUTHORIZATION_DENIED);
        SearchRequest unknown = new SearchRequest(PEOPLE, SearchScope.SUB, "(uid=bob)");
        unknown.addControl(new ProxiedAuthorizationV2RequestControl("dn:uid=nobody," + PEOPLE));
        assertCode(() -> admin.search(unknown), ResultCode.AUTHORIZATION_DENIED);
      } finally {
        root.modify(PEOPLE, new Modification(ModificationType.DELETE, "aci", aci));
      }
    }
  }

  @Test
  void proxied_who_am_i_is_not_a_way_around_the_privilege() throws Exception {
    try (LDAPConnection carol = bind(server, CAROL, CAROL_PASSWORD)) {
      CompareRequest compare = new CompareRequest(BOB, "cn", "bob");
      compare.addControl(new ProxiedAuthorizationV2RequestControl("dn:" + BOB));
      assertCode(() -> carol.compare(compare), ResultCode.AUTHORIZATION_DENIED);
      assertThat(carol.processExtendedOperation(new WhoAmIExtendedRequest()).getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
    }
  }

  @Test
  void rename_needs_write_on_the_naming_attribute() throws Exception {
    try (LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD)) {
      assertCode(
          () -> alice.modifyDN(new ModifyDNRequest(CAROL, "uid=carol3", true)),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  // ---------------------------------------------------------------- helpers

  /**
   * One entry by a base search with an indexed filter (base searches with (objectClass=*) count as
   * unindexed in the phase-1 search code).
   */
  static SearchResultEntry read(LDAPConnection connection, String dn, String... attributes)
      throws LDAPException {
    return connection.searchForEntry(dn, SearchScope.BASE, "(objectClass=top)", attributes);
  }

  interface LdapCall {
    Object call() throws Exception;
  }

  private static LDAPResult result(LdapCall call) throws Exception {
    try {
      Object r = call.call();
      return r instanceof LDAPResult l ? l : new LDAPResult(0, ResultCode.SUCCESS);
    } catch (LDAPException e) {
      return e.toLDAPResult();
    }
  }

  static void assertCode(LdapCall call, ResultCode expected) {
    assertThatThrownBy(call::call)
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> assertThat(e.getResultCode()).as(e.getMessage()).isEqualTo(expected));
  }
}
