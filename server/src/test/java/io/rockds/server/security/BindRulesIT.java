package io.rockds.server.security;

import static io.rockds.server.security.AccessControlIT.assertCode;
import static io.rockds.server.security.SecurityFixture.ALICE;
import static io.rockds.server.security.SecurityFixture.ALICE_PASSWORD;
import static io.rockds.server.security.SecurityFixture.BOB;
import static io.rockds.server.security.SecurityFixture.BOB_PASSWORD;
import static io.rockds.server.security.SecurityFixture.EDITORS;
import static io.rockds.server.security.SecurityFixture.PEOPLE;
import static io.rockds.server.security.SecurityFixture.bind;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.PLAINBindRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each bind rule keyword beyond userdn, groupdn and ip, through a real server and a real client: an
 * ACI on ou=People lets the rule's subject write the description of a target entry; for every
 * keyword one client is allowed and another refused with insufficientAccessRights (50).
 */
class BindRulesIT {
  private static final String TARGET = "uid=target," + PEOPLE;
  private static final String PROJECTS = "ou=Projects," + TestServer.BASE;
  private static final String PROJECT = "cn=apollo," + PROJECTS;
  private static final Modification DESCRIBE =
      new Modification(ModificationType.REPLACE, "description", "edited");

  @TempDir static Path dir;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(SecurityFixture.entries());
    entries.add(
        SecurityFixture.person(
            "target",
            "target-password-1",
            "manager: " + BOB,
            "labeledURI: ldap:///" + PEOPLE + "??one?(uid=alice)",
            "departmentNumber: 42",
            "seeAlso: " + EDITORS));
    entries.add(
        new Entry(
            "dn: " + PROJECTS,
            "objectClass: top",
            "objectClass: organizationalUnit",
            "ou: Projects",
            "seeAlso: " + EDITORS));
    entries.add(
        new Entry(
            "dn: " + PROJECT,
            "objectClass: top",
            "objectClass: groupOfNames",
            "cn: apollo",
            "member: " + BOB));
    server = TestServer.start(dir, entries);
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(ALICE, new Modification(ModificationType.ADD, "departmentNumber", "42"));
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void userattr_userdn_allows_the_named_manager() throws Exception {
    assertWriteOf(TARGET, "userattr=\"manager#USERDN\"", BOB, ALICE);
  }

  @Test
  void userattr_groupdn_allows_members_of_the_named_group() throws Exception {
    assertWriteOf(TARGET, "userattr=\"seeAlso#GROUPDN\"", ALICE, BOB);
  }

  @Test
  void userattr_groupdn_with_parent_reads_the_attribute_one_level_up() throws Exception {
    assertWriteOf(PROJECT, "userattr=\"parent[1].seeAlso#GROUPDN\"", ALICE, BOB);
    // Level 0 only: the project entry has no seeAlso, so nobody is allowed.
    try (LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD)) {
      withAci(
          PROJECT,
          "userattr=\"seeAlso#GROUPDN\"",
          () ->
              assertCode(
                  () -> alice.modify(PROJECT, DESCRIBE), ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
    }
  }

  @Test
  void userattr_ldapurl_allows_users_the_url_selects() throws Exception {
    assertWriteOf(TARGET, "userattr=\"labeledURI#LDAPURL\"", ALICE, BOB);
  }

  @Test
  void userattr_value_allows_users_sharing_the_value_with_the_target() throws Exception {
    assertWriteOf(TARGET, "userattr=\"departmentNumber#42\"", ALICE, BOB);
  }

  @Test
  void roledn_is_evaluated_like_groupdn() throws Exception {
    assertWriteOf(TARGET, "roledn=\"ldap:///" + EDITORS + "\"", ALICE, BOB);
  }

  @Test
  void dns_matches_loopback_clients_as_localhost() throws Exception {
    try (LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD)) {
      withAci(TARGET, "dns=\"localhost\"", () -> alice.modify(TARGET, DESCRIBE));
      withAci(
          TARGET,
          "dns=\"*.example.invalid\"",
          () ->
              assertCode(
                  () -> alice.modify(TARGET, DESCRIBE), ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
    }
  }

  @Test
  void dayofweek_compares_the_servers_day() throws Exception {
    LocalDateTime now = LocalDateTime.now();
    // Leave out yesterday, today and tomorrow so that midnight during the test changes nothing.
    Set<DayOfWeek> away = EnumSet.allOf(DayOfWeek.class);
    away.removeAll(
        List.of(now.getDayOfWeek(), now.getDayOfWeek().minus(1), now.getDayOfWeek().plus(1)));
    try (LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD)) {
      withAci(
          TARGET,
          "dayofweek=\"" + days(EnumSet.allOf(DayOfWeek.class)) + "\"",
          () -> alice.modify(TARGET, DESCRIBE));
      withAci(
          TARGET,
          "dayofweek=\"" + days(away) + "\"",
          () ->
              assertCode(
                  () -> alice.modify(TARGET, DESCRIBE), ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
      withAci(TARGET, "dayofweek!=\"" + days(away) + "\"", () -> alice.modify(TARGET, DESCRIBE));
    }
  }

  @Test
  void timeofday_compares_the_servers_time_with_every_operator() throws Exception {
    try (LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD)) {
      withAci(
          TARGET,
          "timeofday>=\"0000\" and timeofday<=\"2359\"",
          () -> alice.modify(TARGET, DESCRIBE));
      withAci(
          TARGET,
          "timeofday>\"2359\" or timeofday<\"0000\"",
          () ->
              assertCode(
                  () -> alice.modify(TARGET, DESCRIBE), ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
    }
  }

  @Test
  void ssf_is_the_tls_key_size_and_zero_in_clear_text() throws Exception {
    SSLContext trustAll = new SSLUtil(new TrustAllTrustManager()).createSSLContext("TLSv1.3");
    try (LDAPConnection clear = bind(server, ALICE, ALICE_PASSWORD);
        LDAPConnection ldaps =
            new LDAPConnection(trustAll.getSocketFactory(), "127.0.0.1", server.ldapsPort());
        LDAPConnection startTls = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      ldaps.bind(ALICE, ALICE_PASSWORD);
      startTls.processExtendedOperation(new StartTLSExtendedRequest(trustAll));
      startTls.bind(ALICE, ALICE_PASSWORD);
      withAci(
          TARGET,
          "ssf>=\"128\"",
          () -> {
            ldaps.modify(TARGET, DESCRIBE);
            startTls.modify(TARGET, DESCRIBE);
            assertCode(() -> clear.modify(TARGET, DESCRIBE), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
          });
      withAci(
          TARGET,
          "ssf=\"0\"",
          () -> {
            clear.modify(TARGET, DESCRIBE);
            assertCode(() -> ldaps.modify(TARGET, DESCRIBE), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
          });
    }
  }

  @Test
  void authmethod_tells_simple_from_sasl_plain() throws Exception {
    try (LDAPConnection simple = bind(server, ALICE, ALICE_PASSWORD);
        LDAPConnection plain = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      plain.bind(new PLAINBindRequest("dn:" + ALICE, ALICE_PASSWORD));
      withAci(
          TARGET,
          "authmethod=\"sasl PLAIN\"",
          () -> {
            plain.modify(TARGET, DESCRIBE);
            assertCode(
                () -> simple.modify(TARGET, DESCRIBE), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
          });
      withAci(
          TARGET,
          "authmethod=\"simple\"",
          () -> {
            simple.modify(TARGET, DESCRIBE);
            assertCode(() -> plain.modify(TARGET, DESCRIBE), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
          });
    }
  }

  // ---------------------------------------------------------------- helpers

  /**
   * With an ACI letting {@code bindRule} write the description of {@code target}: one user may, the
   * other not.
   */
  private static void assertWriteOf(
      String target, String bindRule, String allowedDn, String refusedDn) throws Exception {
    try (LDAPConnection allowed = bind(server, allowedDn, password(allowedDn));
        LDAPConnection refused = bind(server, refusedDn, password(refusedDn))) {
      assertCode(() -> allowed.modify(target, DESCRIBE), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      withAci(
          target,
          bindRule,
          () -> {
            allowed.modify(target, DESCRIBE);
            assertCode(
                () -> refused.modify(target, DESCRIBE), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
          });
    }
  }

  private interface LdapWork {
    void run() throws Exception;
  }

  /**
   * Runs {@code work} while ou=People and ou=Projects hold an ACI granting write of {@code
   * target}'s description.
   */
  private static void withAci(String target, String bindRule, LdapWork work) throws Exception {
    String holder = target.endsWith(PROJECTS) ? PROJECTS : PEOPLE;
    String aci =
        "(target=\"ldap:///"
            + target
            + "\")(targetattr=\"description\")(version 3.0; acl \"bind rule test\";"
            + " allow (write) "
            + bindRule
            + ";)";
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(holder, new Modification(ModificationType.ADD, "aci", aci));
      try {
        work.run();
      } finally {
        root.modify(holder, new Modification(ModificationType.DELETE, "aci", aci));
      }
    }
  }

  private static String password(String dn) {
    return dn.equals(ALICE) ? ALICE_PASSWORD : BOB_PASSWORD;
  }

  private static String days(Set<DayOfWeek> days) {
    return String.join(
        ",", days.stream().map(d -> d.getDisplayName(TextStyle.SHORT, Locale.ENGLISH)).toList());
  }
}
