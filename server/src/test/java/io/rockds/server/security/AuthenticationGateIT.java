package io.rockds.server.security;

import static io.rockds.server.security.AccessControlIT.read;
import static io.rockds.server.security.SecurityFixture.PEOPLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.PLAINBindRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;
import io.rockds.config.InitialConfig;
import io.rockds.server.TestClock;
import io.rockds.server.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every way to authenticate goes through one gate applying the password policy of a new instance
 * (lockout after 10 failures for 5 minutes, validators on new passwords): Password Modify's old
 * password, SASL PLAIN and simple binds alike, over real connections, with the server's clock moved
 * by the test instead of sleeping.
 */
class AuthenticationGateIT {
  private static final String POLICY = "cn=Default Password Policy,cn=Password Policies,cn=config";
  private static final String PASSWORD = "Initial-Secret-42";
  private static final String INVALID = "Invalid credentials";
  private static final TestClock CLOCK = new TestClock();

  @TempDir static Path dir;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(SecurityFixture.entries());
    for (String uid : List.of("pm", "plain", "secure", "valid", "timing", "shown")) {
      entries.add(SecurityFixture.person(uid, PASSWORD));
    }
    entries.add(SecurityFixture.person("disabled", PASSWORD, "ds-pwp-account-disabled: TRUE"));
    entries.add(
        SecurityFixture.person(
            "expired", PASSWORD, "ds-pwp-account-expiration-time: 20251231000000Z"));
    server = TestServer.start(dir, entries, CLOCK);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static String dn(String uid) {
    return "uid=" + uid + "," + PEOPLE;
  }

  @Test
  void a_wrong_old_password_in_password_modify_is_a_failed_bind_and_locks_the_account()
      throws Exception {
    String pm = dn("pm");
    try (LDAPConnection anonymous = server.anonymousConnection()) {
      ExtendedResult wrong =
          anonymous.processExtendedOperation(
              new PasswordModifyExtendedRequest(pm, "wrong-guess", "New-Secret-43"));
      ExtendedResult absent =
          anonymous.processExtendedOperation(
              new PasswordModifyExtendedRequest(dn("nobody"), "wrong-guess", "New-Secret-43"));
      ExtendedResult notADn =
          anonymous.processExtendedOperation(
              new PasswordModifyExtendedRequest("u:nobody", "wrong-guess", "New-Secret-43"));
      // The answer tells no more than a failed bind: same code and message, user or not.
      for (LDAPResult result : List.of(wrong, absent, notADn)) {
        assertThat(result.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS);
        assertThat(result.getDiagnosticMessage()).isEqualTo(INVALID);
      }
      try (LDAPConnection root = server.rootConnection()) {
        assertThat(read(root, pm, "pwdFailureTime").getAttributeValues("pwdFailureTime"))
            .hasSize(1);
      }
      for (int i = 1; i < InitialConfig.DEFAULT_LOCKOUT_FAILURE_COUNT; i++) {
        CLOCK.advance(Duration.ofMillis(10));
        assertThat(
                anonymous
                    .processExtendedOperation(
                        new PasswordModifyExtendedRequest(pm, "guess-" + i, "New-Secret-43"))
                    .getResultCode())
            .isEqualTo(ResultCode.INVALID_CREDENTIALS);
      }
      // Locked: the right old password no longer works, here or in a bind.
      ExtendedResult locked =
          anonymous.processExtendedOperation(
              new PasswordModifyExtendedRequest(pm, PASSWORD, "New-Secret-43"));
      assertThat(locked.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS);
      assertThat(locked.getDiagnosticMessage()).isEqualTo(INVALID);
      assertThat(bindCode(pm, PASSWORD)).isEqualTo(ResultCode.INVALID_CREDENTIALS);

      CLOCK.advance(Duration.ofMinutes(5).plusSeconds(1));
      // After the lockout, the old password proves the user: the change is made as them (OpenDJ).
      assertThat(
              anonymous
                  .processExtendedOperation(
                      new PasswordModifyExtendedRequest(pm, PASSWORD, "New-Secret-43"))
                  .getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
    }
    assertThat(bindCode(pm, "New-Secret-43")).isEqualTo(ResultCode.SUCCESS);
    try (LDAPConnection root = server.rootConnection()) {
      Entry state = read(root, pm, "pwdFailureTime", "pwdAccountLockedTime");
      assertThat(state.hasAttribute("pwdFailureTime")).isFalse();
      assertThat(state.hasAttribute("pwdAccountLockedTime")).isFalse();
    }
  }

  @Test
  void anonymous_password_modify_without_the_old_password_is_refused_before_any_lookup()
      throws Exception {
    try (LDAPConnection anonymous = server.anonymousConnection()) {
      for (String user : List.of(dn("pm"), dn("nobody"))) {
        ExtendedResult result =
            anonymous.processExtendedOperation(
                new PasswordModifyExtendedRequest(user, null, "New-Secret-44"));
        assertThat(result.getResultCode()).isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
      }
    }
  }

  @Test
  void sasl_plain_failures_count_a_locked_account_cannot_use_plain_and_the_log_names_the_user()
      throws Exception {
    String plain = dn("plain");
    for (int i = 0; i < InitialConfig.DEFAULT_LOCKOUT_FAILURE_COUNT; i++) {
      CLOCK.advance(Duration.ofMillis(10));
      assertThat(plainCode("u:plain", "wrong-" + i)).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }
    try (LDAPConnection root = server.rootConnection()) {
      assertThat(read(root, plain, "pwdAccountLockedTime").hasAttribute("pwdAccountLockedTime"))
          .isTrue();
    }
    assertThat(plainCode("u:plain", PASSWORD)).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    assertThat(plainCode("dn:" + plain, PASSWORD)).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    assertThat(bindCode(plain, PASSWORD)).isEqualTo(ResultCode.INVALID_CREDENTIALS);

    assertThat(plainCode("u:shown", PASSWORD)).isEqualTo(ResultCode.SUCCESS);
    String expected = "mechanism=PLAIN dn=\"\" authDN=\"" + dn("shown") + "\" result=0";
    assertThat(awaitAccessLogLine(expected)).contains(expected);
  }

  @Test
  void disabled_and_expired_accounts_do_not_authenticate_by_any_path() throws Exception {
    for (String uid : List.of("disabled", "expired")) {
      assertThat(bindCode(dn(uid), PASSWORD)).isEqualTo(ResultCode.INVALID_CREDENTIALS);
      assertThat(plainCode("u:" + uid, PASSWORD)).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }
  }

  @Test
  void require_secure_authentication_refuses_passwords_in_the_clear() throws Exception {
    setPolicy(ModificationType.REPLACE, "ds-cfg-require-secure-authentication", "true");
    try {
      assertThat(bindCode(dn("secure"), PASSWORD)).isEqualTo(ResultCode.CONFIDENTIALITY_REQUIRED);
      assertThat(plainCode("u:secure", PASSWORD)).isEqualTo(ResultCode.CONFIDENTIALITY_REQUIRED);
      assertThat(bindCode(dn("nobody"), PASSWORD)).isEqualTo(ResultCode.CONFIDENTIALITY_REQUIRED);
      SSLUtil tls = new SSLUtil(new TrustAllTrustManager());
      try (LDAPConnection ldaps =
          new LDAPConnection(tls.createSSLSocketFactory(), "127.0.0.1", server.ldapsPort())) {
        assertThat(ldaps.bind(dn("secure"), PASSWORD).getResultCode())
            .isEqualTo(ResultCode.SUCCESS);
      }
    } finally {
      try (LDAPConnection ldaps =
          new LDAPConnection(
              new SSLUtil(new TrustAllTrustManager()).createSSLSocketFactory(),
              "127.0.0.1",
              server.ldapsPort(),
              TestServer.ROOT_DN,
              TestServer.ROOT_PASSWORD)) {
        ldaps.modify(
            POLICY,
            new Modification(
                ModificationType.REPLACE, "ds-cfg-require-secure-authentication", "false"));
      }
    }
    assertThat(bindCode(dn("secure"), PASSWORD)).isEqualTo(ResultCode.SUCCESS);
  }

  @Test
  void new_passwords_pass_the_default_validators_and_an_added_character_set_one() throws Exception {
    String valid = dn("valid");
    try (LDAPConnection user = SecurityFixture.bind(server, valid, PASSWORD)) {
      assertThat(changeOwn(user, valid, "x")).contains("too short");
      assertThat(changeOwn(user, valid, "Password123")).contains("common");
      assertThat(changeOwn(user, valid, "321drowssaP")).contains("common");
      assertThat(changeOwn(user, valid, "VALID")).contains("too short");
      assertThat(changeOwn(user, valid, "valid-valid")).isNull();
      ExtendedResult oneCharacter =
          user.processExtendedOperation(
              new PasswordModifyExtendedRequest(valid, "valid-valid", "y"));
      assertThat(oneCharacter.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION);

      setPolicy(ModificationType.ADD, "ds-cfg-password-validator", "Character Set");
      try {
        assertThat(changeOwn(user, valid, "only-lowercase")).contains("character sets");
        assertThat(changeOwn(user, valid, "Mixed-Case-and-7")).isNull();
      } finally {
        setPolicy(ModificationType.DELETE, "ds-cfg-password-validator", "Character Set");
      }
    }
  }

  @Test
  void a_clear_labelled_value_is_refused_as_a_pre_encoded_value_of_a_disabled_scheme()
      throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      assertThatThrownBy(
              () ->
                  root.modify(
                      dn("valid"),
                      new Modification(
                          ModificationType.REPLACE, "userPassword", "{CLEAR}Clear-Text-77")))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION);
                assertThat(e.getDiagnosticMessage()).contains("{CLEAR}").contains("disabled");
              });
      assertThatThrownBy(() -> root.add(SecurityFixture.person("clearadd", "{CLEAR}Clear-Text-77")))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION));
    }
  }

  /**
   * With bcrypt (tens of milliseconds per verification), a wrong password for an absent DN costs as
   * much as for a present one: the gate verifies against a decoy hash. Lockout is off here: the
   * failure it records for a present user is a synced write, whose cost on a busy disk would swamp
   * the hash (a known residual difference, see docs/authentication.md).
   */
  @Test
  void bind_timing_does_not_tell_absent_users_from_present_ones() throws Exception {
    String bcrypt = "cn=Bcrypt,cn=Password Storage Schemes,cn=config";
    String original;
    try (LDAPConnection root = server.rootConnection()) {
      original = root.getEntry(POLICY).getAttributeValue("ds-cfg-default-password-storage-scheme");
      root.modify(
          POLICY,
          new Modification(
              ModificationType.REPLACE, "ds-cfg-default-password-storage-scheme", bcrypt),
          new Modification(ModificationType.REPLACE, "ds-cfg-lockout-failure-count", "0"));
      root.modify(
          dn("timing"), new Modification(ModificationType.REPLACE, "userPassword", PASSWORD));
    }
    try {
      long[] present = new long[7];
      long[] absent = new long[7];
      for (int i = 0; i < present.length; i++) {
        absent[i] = failedBindNanos(dn("absent-" + i));
        present[i] = failedBindNanos(dn("timing"));
      }
      long presentMedian = median(present);
      long absentMedian = median(absent);
      assertThat(absentMedian)
          .as("absent %d ns vs present %d ns", absentMedian, presentMedian)
          .isGreaterThan(presentMedian / 2);
    } finally {
      try (LDAPConnection root = server.rootConnection()) {
        root.modify(
            POLICY,
            new Modification(
                ModificationType.REPLACE, "ds-cfg-default-password-storage-scheme", original),
            new Modification(
                ModificationType.REPLACE,
                "ds-cfg-lockout-failure-count",
                Integer.toString(InitialConfig.DEFAULT_LOCKOUT_FAILURE_COUNT)));
      }
    }
  }

  private static long failedBindNanos(String dn) throws LDAPException {
    try (LDAPConnection connection = server.anonymousConnection()) {
      long start = System.nanoTime();
      try {
        connection.bind(dn, "Wrong-Password-0");
      } catch (LDAPException e) {
        assertThat(e.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS);
      }
      return System.nanoTime() - start;
    }
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** The diagnostic message of a refused change of one's own password, or null if it succeeded. */
  private static String changeOwn(LDAPConnection user, String dn, String password) {
    try {
      user.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", password));
      return null;
    } catch (LDAPException e) {
      assertThat(e.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION);
      return e.getDiagnosticMessage();
    }
  }

  private static void setPolicy(ModificationType type, String attribute, String value)
      throws LDAPException {
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(POLICY, new Modification(type, attribute, value));
    }
  }

  private static ResultCode bindCode(String dn, String password) throws LDAPException {
    try (LDAPConnection connection = server.anonymousConnection()) {
      BindResult result = connection.bind(new SimpleBindRequest(dn, password));
      return result.getResultCode();
    } catch (LDAPException e) {
      return e.getResultCode();
    }
  }

  private static ResultCode plainCode(String authcId, String password) throws LDAPException {
    try (LDAPConnection connection = server.anonymousConnection()) {
      return connection.bind(new PLAINBindRequest(authcId, password)).getResultCode();
    } catch (LDAPException e) {
      return e.getResultCode();
    }
  }

  /** The access log line containing {@code text}; the log is written asynchronously. */
  private static String awaitAccessLogLine(String text) throws Exception {
    Path log = server.instance().logs().resolve("access");
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(log)) {
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
          if (line.contains(text)) {
            return line;
          }
        }
      }
      Thread.onSpinWait();
    }
    return Files.readString(log, StandardCharsets.UTF_8);
  }
}
