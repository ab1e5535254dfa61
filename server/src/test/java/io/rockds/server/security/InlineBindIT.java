package io.rockds.server.security;

import static io.rockds.server.security.SecurityFixture.ALICE;
import static io.rockds.server.security.SecurityFixture.ALICE_PASSWORD;
import static io.rockds.server.security.SecurityFixture.PASSWORD_POLICIES;
import static io.rockds.server.security.SecurityFixture.PEOPLE;
import static io.rockds.server.security.SecurityFixture.passwordPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simple bind verifying a salted digest and writing nothing (here under a default policy that
 * counts no failures) runs on the event loop; one verifying a slow scheme (the root user's PBKDF2)
 * or writing password policy state (a failure counted toward a lockout, failures cleared by a
 * success) gives way to a worker before answering, which records the state as before. Observed
 * through the hand-offs counted in cn=Operations,cn=monitor (read by searches, which leave the bind
 * counts alone), each bind counted once: every simple bind is tried on the event loop (the root
 * bind's hand-off shows it), so one not handed off ran there.
 */
class InlineBindIT {
  private static final String LOCKOUT_POLICY = "cn=Lockout Policy," + PASSWORD_POLICIES;
  private static final String LOCKY = "uid=locky," + PEOPLE;
  private static final String LOCKY_PASSWORD = "locky-password-1";

  @TempDir static Path dir;
  private static TestServer server;
  private static LDAPConnection root;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(SecurityFixture.entries());
    entries.add(
        SecurityFixture.person(
            "locky", LOCKY_PASSWORD, "ds-pwp-password-policy-dn: " + LOCKOUT_POLICY));
    server = TestServer.start(dir, entries);
    SecurityFixture.reconfigure(
        server,
        passwordPolicy(
            "Default Password Policy",
            "ds-cfg-default-password-storage-scheme: cn=Salted SHA-512,cn=Password Storage Schemes,cn=config",
            "ds-cfg-lockout-failure-count: 0"),
        passwordPolicy(
            "Lockout Policy",
            "ds-cfg-default-password-storage-scheme: cn=Salted SHA-256,cn=Password Storage Schemes,cn=config",
            "ds-cfg-lockout-failure-count: 3",
            "ds-cfg-lockout-duration: 1 h"));
    root = server.rootConnection();
  }

  @AfterAll
  static void stop() {
    root.close();
    server.close();
  }

  @Test
  void aBindCheckingASaltedDigestAndWritingNothingRunsOnTheEventLoop() throws Exception {
    long[] before = bindCounts();
    bind(ALICE, ALICE_PASSWORD);
    assertThat(refusal(ALICE, "wrong-password")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    assertThat(refusal("uid=nobody," + PEOPLE, "any-password"))
        .isEqualTo(ResultCode.INVALID_CREDENTIALS);
    long[] after = bindCounts();
    assertThat(after[0] - before[0]).as("binds handed to a worker").isZero();
    assertThat(after[1] - before[1]).as("binds initiated").isEqualTo(3);
  }

  @Test
  void aBindVerifyingASlowSchemeGivesWayToAWorker() throws Exception {
    long[] before = bindCounts();
    server.rootConnection().close();
    long[] after = bindCounts();
    assertThat(after[0] - before[0]).as("binds handed to a worker").isEqualTo(1);
    assertThat(after[1] - before[1]).as("binds initiated, once each").isEqualTo(1);
  }

  @Test
  void aBindWritingPolicyStateGivesWayToAWorkerWhichRecordsIt() throws Exception {
    long[] before = bindCounts();
    assertThat(refusal(LOCKY, "wrong-password")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    long[] afterFailure = bindCounts();
    assertThat(failureTimes()).hasSize(1);

    bind(LOCKY, LOCKY_PASSWORD);
    long[] afterClearing = bindCounts();
    assertThat(failureTimes()).isEmpty();

    bind(LOCKY, LOCKY_PASSWORD);
    long[] afterPlainSuccess = bindCounts();

    assertThat(afterFailure[0] - before[0]).as("failure counted").isEqualTo(1);
    assertThat(afterClearing[0] - afterFailure[0]).as("failures cleared").isEqualTo(1);
    assertThat(afterPlainSuccess[0] - afterClearing[0]).as("nothing to write").isZero();
    assertThat(afterPlainSuccess[1] - before[1]).as("binds initiated, once each").isEqualTo(3);
  }

  private static void bind(String dn, String password) throws LDAPException {
    new LDAPConnection("127.0.0.1", server.ldapPort(), dn, password).close();
  }

  private static ResultCode refusal(String dn, String password) {
    try {
      bind(dn, password);
      return ResultCode.SUCCESS;
    } catch (LDAPException e) {
      return e.getResultCode();
    }
  }

  private static String[] failureTimes() throws LDAPException {
    String[] times = root.getEntry(LOCKY, "pwdFailureTime").getAttributeValues("pwdFailureTime");
    return times == null ? new String[0] : times;
  }

  /** Binds handed from an event loop to a worker, and binds initiated, so far. */
  private static long[] bindCounts() throws LDAPException {
    Entry operations =
        root.getEntry("cn=Operations,cn=monitor", "bindOpsHandedToWorker", "bindOpsInitiated");
    return new long[] {
      operations.getAttributeValueAsLong("bindOpsHandedToWorker"),
      operations.getAttributeValueAsLong("bindOpsInitiated")
    };
  }
}
