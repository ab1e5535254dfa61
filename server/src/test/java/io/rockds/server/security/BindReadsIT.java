package io.rockds.server.security;

import static io.rockds.server.security.AccessControlIT.read;
import static io.rockds.server.security.SecurityFixture.PASSWORD_POLICIES;
import static io.rockds.server.security.SecurityFixture.PEOPLE;
import static io.rockds.server.security.SecurityFixture.passwordPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ErrorType;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10RequestControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ResponseControl;
import io.rockds.config.ConfigStore;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bind decodes only the attributes authentication reads of the entry (its password, its policy
 * and the state kept under it, its privileges and limits), and answers exactly as with the whole
 * entry: on two servers, one whose entry cache keeps no user decoded (the default: each bind
 * decodes the record) and one keeping every entry decoded (an explicit {@code entry-cache-size}),
 * which a write must not leave stale.
 */
class BindReadsIT {
  private static final String LOCKOUT_POLICY = "cn=Two Strikes," + PASSWORD_POLICIES;
  private static final String BACKEND = "ds-cfg-backend-id=userRoot,cn=Backends,cn=config";
  private static final String PASSWORD = "first-password-1";

  @TempDir static Path uncachedDir;
  @TempDir static Path cachedDir;
  private static final List<TestServer> SERVERS = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    for (Path dir : List.of(uncachedDir, cachedDir)) {
      List<Entry> entries = new ArrayList<>(SecurityFixture.entries());
      for (String uid : List.of("changed", "struck", "limited")) {
        entries.add(
            SecurityFixture.person(
                uid,
                PASSWORD,
                "ds-pwp-password-policy-dn: " + LOCKOUT_POLICY,
                "ds-rlim-size-limit: 1",
                "jpegPhoto:: " + "AAEC".repeat(400)));
      }
      TestServer server = TestServer.start(dir, entries);
      SERVERS.add(server);
      List<Entry> config = new ArrayList<>();
      config.add(
          passwordPolicy(
              "Default Password Policy",
              "ds-cfg-default-password-storage-scheme: cn=Salted SHA-512,cn=Password Storage Schemes,cn=config",
              "ds-cfg-lockout-failure-count: 0"));
      config.add(
          passwordPolicy(
              "Two Strikes",
              "ds-cfg-default-password-storage-scheme: cn=Salted SHA-256,cn=Password Storage Schemes,cn=config",
              "ds-cfg-lockout-failure-count: 2",
              "ds-cfg-lockout-duration: 1 h"));
      if (dir == cachedDir) {
        Entry backend = ConfigStore.load(server.instance().configFile()).get(new DN(BACKEND));
        backend = backend.duplicate();
        backend.setAttribute("ds-cfg-entry-cache-size", Integer.toString(16 << 20));
        config.add(backend);
      }
      SecurityFixture.reconfigure(server, config.toArray(Entry[]::new));
    }
  }

  @AfterAll
  static void stop() {
    SERVERS.forEach(TestServer::close);
  }

  private static String dn(String uid) {
    return "uid=" + uid + "," + PEOPLE;
  }

  @Test
  void aBindAfterAPasswordChangeChecksTheNewPassword() throws Exception {
    for (TestServer server : SERVERS) {
      assertThat(bind(server, dn("changed"), PASSWORD)).isEqualTo(ResultCode.SUCCESS);
      try (LDAPConnection root = server.rootConnection()) {
        root.modify(
            dn("changed"),
            new Modification(ModificationType.REPLACE, "userPassword", "second-password-2"));
      }
      assertThat(bind(server, dn("changed"), PASSWORD)).isEqualTo(ResultCode.INVALID_CREDENTIALS);
      assertThat(bind(server, dn("changed"), "second-password-2")).isEqualTo(ResultCode.SUCCESS);
    }
  }

  @Test
  void aSuccessClearsAPendingFailureAndALockedAccountStaysLocked() throws Exception {
    for (TestServer server : SERVERS) {
      String struck = dn("struck");
      assertThat(bind(server, struck, "wrong-password")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
      assertThat(failures(server, struck)).hasSize(1);
      assertThat(bind(server, struck, PASSWORD)).isEqualTo(ResultCode.SUCCESS);
      assertThat(failures(server, struck)).isEmpty();

      // The entry's own policy counts two strikes (the default policy counts none).
      assertThat(bind(server, struck, "wrong-password")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
      assertThat(bind(server, struck, "wrong-again")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
      try (LDAPConnection anonymous = server.anonymousConnection()) {
        LDAPException locked = null;
        try {
          anonymous.bind(
              new SimpleBindRequest(
                  struck,
                  PASSWORD,
                  new Control[] {new DraftBeheraLDAPPasswordPolicy10RequestControl()}));
        } catch (LDAPException e) {
          locked = e;
        }
        assertThat(locked).isNotNull();
        assertThat(locked.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS);
        assertThat(
                DraftBeheraLDAPPasswordPolicy10ResponseControl.get(locked.toLDAPResult())
                    .getErrorType())
            .isEqualTo(DraftBeheraLDAPPasswordPolicy10ErrorType.ACCOUNT_LOCKED);
      }
    }
  }

  @Test
  void theBoundIdentityHasTheEntrysLimits() throws Exception {
    for (TestServer server : SERVERS) {
      try (LDAPConnection limited = SecurityFixture.bind(server, dn("limited"), PASSWORD)) {
        ResultCode code;
        try {
          code =
              limited
                  .search(new SearchRequest(PEOPLE, SearchScope.ONE, "(objectClass=person)", "1.1"))
                  .getResultCode();
        } catch (LDAPException e) {
          code = e.getResultCode();
        }
        assertThat(code).as("ds-rlim-size-limit: 1").isEqualTo(ResultCode.SIZE_LIMIT_EXCEEDED);
      }
    }
  }

  private static ResultCode bind(TestServer server, String dn, String password) {
    try (LDAPConnection c = SecurityFixture.bind(server, dn, password)) {
      return ResultCode.SUCCESS;
    } catch (LDAPException e) {
      return e.getResultCode();
    }
  }

  private static List<String> failures(TestServer server, String dn) throws LDAPException {
    try (LDAPConnection root = server.rootConnection()) {
      String[] times = read(root, dn, "pwdFailureTime").getAttributeValues("pwdFailureTime");
      return times == null ? List.of() : List.of(times);
    }
  }
}
