package io.rockds.server.security;

import static io.rockds.server.security.SecurityFixture.PEOPLE;
import static io.rockds.server.security.SecurityFixture.passwordPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Simple binds run on a network event loop read the entry from memory only, as searches there do:
 * on a cache that holds nothing yet (a restart with no preload), a bind whose entry is on disk is
 * handed to a worker, which reads it and answers as a warm cache would; once read, the same bind
 * runs on the event loop. Observed through the hand-offs counted in cn=Operations,cn=monitor (read
 * by searches, which leave the bind counts alone).
 */
class ColdCacheBindIT {
  private static final String BACKEND = "ds-cfg-backend-id=userRoot,cn=Backends,cn=config";
  private static final int USERS = 200;
  private static final String PASSWORD = "user-password-1";

  @TempDir Path dir;

  @Test
  void aBindOnAColdCacheIsHandedToAWorkerAndSucceeds() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    for (int i = 0; i < USERS; i++) {
      // A description long enough that the users' records fill many blocks, most of them cold.
      entries.add(SecurityFixture.person("user." + i, PASSWORD, "description: " + "x".repeat(200)));
    }
    try (TestServer server = TestServer.start(dir, entries)) {
      try (LDAPConnection c = server.rootConnection()) {
        c.modify(
            BACKEND,
            new Modification(ModificationType.REPLACE, "ds-cfg-preload-time-limit", "0 s"));
      }
      // Failures counted toward no lockout: a wrong password writes nothing, so stays inline.
      SecurityFixture.reconfigure(
          server,
          passwordPolicy(
              "Default Password Policy",
              "ds-cfg-default-password-storage-scheme: cn=Salted SHA-512,cn=Password Storage Schemes,cn=config",
              "ds-cfg-lockout-failure-count: 0"));
      try (LDAPConnection root = server.rootConnection()) {
        String user = "uid=user.100," + PEOPLE;
        long[] before = bindCounts(root);
        bind(server, user, PASSWORD);
        long[] afterCold = bindCounts(root);
        assertThat(afterCold[0] - before[0])
            .as("the entry was on disk: the bind gave way to a worker")
            .isEqualTo(1);
        assertThat(afterCold[1] - before[1]).as("binds initiated, once each").isEqualTo(1);

        bind(server, user, PASSWORD);
        assertThat(refusal(server, user, "wrong-password"))
            .isEqualTo(ResultCode.INVALID_CREDENTIALS);
        long[] afterWarm = bindCounts(root);
        assertThat(afterWarm[0] - afterCold[0])
            .as("then in memory: answered on the event loop")
            .isZero();

        // A client's usual authentication: the DN found by a search, then a bind as it.
        String found =
            root.searchForEntry(PEOPLE, SearchScope.ONE, "(uid=user.150)", "1.1").getDN();
        bind(server, found, PASSWORD);
        assertThat(refusal(server, "uid=user." + USERS + "," + PEOPLE, PASSWORD))
            .as("an absent entry")
            .isEqualTo(ResultCode.INVALID_CREDENTIALS);
        assertThat(bindCounts(root)[1] - before[1]).isEqualTo(5);
      }
    }
  }

  private static void bind(TestServer server, String dn, String password) throws LDAPException {
    SecurityFixture.bind(server, dn, password).close();
  }

  private static ResultCode refusal(TestServer server, String dn, String password) {
    try {
      bind(server, dn, password);
      return ResultCode.SUCCESS;
    } catch (LDAPException e) {
      return e.getResultCode();
    }
  }

  /** Binds handed from an event loop to a worker, and binds initiated, so far. */
  private static long[] bindCounts(LDAPConnection root) throws LDAPException {
    Entry operations =
        root.getEntry("cn=Operations,cn=monitor", "bindOpsHandedToWorker", "bindOpsInitiated");
    return new long[] {
      operations.getAttributeValueAsLong("bindOpsHandedToWorker"),
      operations.getAttributeValueAsLong("bindOpsInitiated")
    };
  }
}
