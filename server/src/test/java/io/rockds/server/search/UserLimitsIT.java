package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-user controls as OpenDJ's: the {@code unindexed-search} privilege in a user's {@code
 * ds-privilege-name}, and {@code ds-rlim-size-limit}, {@code ds-rlim-time-limit} and {@code
 * ds-rlim-lookthrough-limit} replacing the server's limits for that user, {@code
 * ds-rlim-idle-time-limit} the listener's idle time limit, and privileges granted to a group's
 * members by {@code ds-privilege-name} on the group.
 */
class UserLimitsIT {
  private static final String PEOPLE_DN = "ou=People," + TestServer.BASE;
  private static final int PEOPLE = 50;

  @TempDir static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(user("plain"));
    entries.add(user("small", "ds-rlim-size-limit: 5"));
    entries.add(user("unlimited", "ds-rlim-size-limit: 0"));
    entries.add(user("scanner", "ds-privilege-name: unindexed-search"));
    entries.add(
        user("narrow", "ds-privilege-name: unindexed-search", "ds-rlim-lookthrough-limit: 10"));
    entries.add(user("grouped"));
    entries.add(user("idler", "ds-rlim-idle-time-limit: 1"));
    entries.add(user("promoted"));
    // The privilege is on the outer group; grouped is a member of it through the inner one.
    entries.add(
        new Entry(
            "dn: cn=Scanners," + TestServer.BASE,
            "objectClass: groupOfNames",
            "cn: Scanners",
            "ds-privilege-name: unindexed-search",
            "member: cn=Inner," + TestServer.BASE));
    entries.add(
        new Entry(
            "dn: cn=Inner," + TestServer.BASE,
            "objectClass: groupOfNames",
            "cn: Inner",
            "member: uid=grouped," + TestServer.BASE));
    for (int i = 0; i < PEOPLE; i++) {
      entries.add(
          new Entry(
              "uid=user." + i + "," + PEOPLE_DN,
              new Attribute("objectClass", "top", "person", "inetOrgPerson"),
              new Attribute("uid", "user." + i),
              new Attribute("cn", "User " + i),
              new Attribute("sn", "Same"),
              new Attribute("description", "number " + i)));
    }
    server = TestServer.start(dir, entries);
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(
          "cn=config", new Modification(ModificationType.REPLACE, "ds-cfg-size-limit", "20"));
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Entry user(String uid, String... extra) throws Exception {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "dn: uid=" + uid + "," + TestServer.BASE,
                "objectClass: top",
                "objectClass: person",
                "objectClass: inetOrgPerson",
                "uid: " + uid,
                "cn: " + uid,
                "sn: " + uid,
                "userPassword: " + uid + "-secret"));
    lines.addAll(List.of(extra));
    return new Entry(lines.toArray(String[]::new));
  }

  private static LDAPConnection as(String uid) throws LDAPException {
    return new LDAPConnection(
        "127.0.0.1", server.ldapPort(), "uid=" + uid + "," + TestServer.BASE, uid + "-secret");
  }

  /** The result of a search of the whole suffix, which only an index can narrow. */
  private static ResultCode resultOf(LDAPConnection c, String filter) {
    try {
      c.search(TestServer.BASE, SearchScope.SUB, filter, "1.1");
      return ResultCode.SUCCESS;
    } catch (LDAPSearchException e) {
      return e.getResultCode();
    }
  }

  @Test
  void aUsersSizeLimitReplacesTheServersEitherWay() throws Exception {
    try (LDAPConnection plain = as("plain");
        LDAPConnection small = as("small");
        LDAPConnection unlimited = as("unlimited")) {
      assertThatThrownBy(() -> plain.search(PEOPLE_DN, SearchScope.SUB, "(sn=Same)", "1.1"))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.SIZE_LIMIT_EXCEEDED);
                assertThat(e.getEntryCount()).isEqualTo(20);
              });
      assertThatThrownBy(() -> small.search(PEOPLE_DN, SearchScope.SUB, "(sn=Same)", "1.1"))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.SIZE_LIMIT_EXCEEDED);
                assertThat(e.getEntryCount()).isEqualTo(5);
              });
      assertThat(unlimited.search(PEOPLE_DN, SearchScope.SUB, "(sn=Same)", "1.1").getEntryCount())
          .isEqualTo(PEOPLE);
    }
  }

  @Test
  void theUnindexedSearchPrivilegeAndALookthroughLimitPerUser() throws Exception {
    try (LDAPConnection plain = as("plain");
        LDAPConnection scanner = as("scanner");
        LDAPConnection narrow = as("narrow")) {
      assertThat(resultOf(plain, "(description=number 7)"))
          .isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertThat(
              scanner
                  .search(TestServer.BASE, SearchScope.SUB, "(description=number 7)")
                  .getEntryCount())
          .isEqualTo(1);
      assertThat(resultOf(narrow, "(description=number 7)"))
          .isEqualTo(ResultCode.ADMIN_LIMIT_EXCEEDED);
    }
  }

  @Test
  void aGroupsPrivilegeAppliesToItsMembersNestedOnesIncludedAtEachBind() throws Exception {
    try (LDAPConnection grouped = as("grouped")) {
      assertThat(
              grouped
                  .search(TestServer.BASE, SearchScope.SUB, "(description=number 7)")
                  .getEntryCount())
          .isEqualTo(1);
    }
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(
          "cn=Inner," + TestServer.BASE,
          new Modification(ModificationType.DELETE, "member", "uid=grouped," + TestServer.BASE));
      try (LDAPConnection grouped = as("grouped")) {
        assertThat(resultOf(grouped, "(description=number 7)"))
            .isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      } finally {
        root.modify(
            "cn=Inner," + TestServer.BASE,
            new Modification(ModificationType.ADD, "member", "uid=grouped," + TestServer.BASE));
      }
    }
  }

  /** What the server knows of privileged groups follows adds, modifies, renames and deletes. */
  @Test
  void aGroupGrantsPrivilegesFromTheMomentItCarriesThemUntilItIsRemoved() throws Exception {
    String group = "cn=Promoted," + TestServer.BASE;
    String filter = "(description=number 7)";
    try (LDAPConnection root = server.rootConnection()) {
      root.add(
          new Entry(
              "dn: " + group,
              "objectClass: groupOfNames",
              "cn: Promoted",
              "member: uid=promoted," + TestServer.BASE));
      try (LDAPConnection promoted = as("promoted")) {
        assertThat(resultOf(promoted, filter)).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      }
      root.modify(
          group, new Modification(ModificationType.ADD, "ds-privilege-name", "unindexed-search"));
      try (LDAPConnection promoted = as("promoted")) {
        assertThat(resultOf(promoted, filter)).isEqualTo(ResultCode.SUCCESS);
      }
      root.modifyDN(group, "cn=Renamed", true);
      String renamed = "cn=Renamed," + TestServer.BASE;
      try (LDAPConnection promoted = as("promoted")) {
        assertThat(resultOf(promoted, filter)).isEqualTo(ResultCode.SUCCESS);
      }
      root.delete(renamed);
      try (LDAPConnection promoted = as("promoted")) {
        assertThat(resultOf(promoted, filter)).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      }
    }
  }

  @Test
  void aUsersIdleTimeLimitClosesOnlyTheirIdleConnection() throws Exception {
    CountDownLatch idlerClosed = new CountDownLatch(1);
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setDisconnectHandler((c, host, port, type, message, cause) -> idlerClosed.countDown());
    try (LDAPConnection plain = as("plain");
        LDAPConnection idler = new LDAPConnection(options)) {
      idler.connect("127.0.0.1", server.ldapPort());
      idler.bind("uid=idler," + TestServer.BASE, "idler-secret");
      // The listener keeps idle connections forever; idler's own limit is one second.
      assertThat(idlerClosed.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(idler.isConnected()).isFalse();
      assertThat(plain.isConnected()).isTrue();
      assertThat(plain.getEntry("uid=plain," + TestServer.BASE)).isNotNull();
    }
  }

  @Test
  void aUserCannotRaiseTheirOwnLimit() throws Exception {
    try (LDAPConnection small = as("small")) {
      assertThatThrownBy(
              () ->
                  small.modify(
                      "uid=small," + TestServer.BASE,
                      new Modification(ModificationType.REPLACE, "ds-rlim-size-limit", "0")))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
    }
  }
}
