package io.rockds.server.security;

import static io.rockds.server.security.AccessControlIT.assertCode;
import static io.rockds.server.security.AccessControlIT.read;
import static io.rockds.server.security.SecurityFixture.ADMIN;
import static io.rockds.server.security.SecurityFixture.ADMIN_PASSWORD;
import static io.rockds.server.security.SecurityFixture.BOB;
import static io.rockds.server.security.SecurityFixture.BOB_PASSWORD;
import static io.rockds.server.security.SecurityFixture.PASSWORD_POLICIES;
import static io.rockds.server.security.SecurityFixture.PEOPLE;
import static io.rockds.server.security.SecurityFixture.bind;
import static io.rockds.server.security.SecurityFixture.passwordPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ErrorType;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10RequestControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ResponseControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10WarningType;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedResult;
import io.rockds.server.TestClock;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Password policy over LDAP: lockout and unlock, must-change after reset, history, minimum length,
 * expiry and its warning, the Password Policy control and Password Modify.
 */
class PasswordPolicyIT {
  private static final String EXPIRED_POLICY = "cn=Expired Policy," + PASSWORD_POLICIES;
  private static final String WARNING_POLICY = "cn=Warning Policy," + PASSWORD_POLICIES;
  private static final String PASSWORD = "first-password";

  /** The server's clock: lockouts end when the test moves it, not after a sleep. */
  private static final TestClock CLOCK = new TestClock();

  @TempDir static Path dir;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(SecurityFixture.entries());
    for (String uid : List.of("locky", "resetme", "hist", "selfpm", "genpm", "target", "hashme")) {
      entries.add(SecurityFixture.person(uid, PASSWORD));
    }
    entries.add(
        SecurityFixture.person(
            "old",
            PASSWORD,
            "pwdChangedTime: 20200101000000Z",
            "ds-pwp-password-policy-dn: " + EXPIRED_POLICY));
    entries.add(
        SecurityFixture.person("warned", PASSWORD, "ds-pwp-password-policy-dn: " + WARNING_POLICY));
    server = TestServer.start(dir, entries, CLOCK);
    SecurityFixture.reconfigure(
        server,
        passwordPolicy(
            "Default Password Policy",
            "ds-cfg-default-password-storage-scheme: cn=Salted SHA-256,cn=Password Storage Schemes,cn=config",
            "ds-cfg-min-password-length: 8",
            "ds-cfg-password-history-count: 2",
            "ds-cfg-lockout-failure-count: 3",
            "ds-cfg-lockout-duration: 2 s",
            "ds-cfg-force-change-on-reset: true"),
        passwordPolicy(
            "Expired Policy",
            "ds-cfg-default-password-storage-scheme: cn=Salted SHA-512,cn=Password Storage Schemes,cn=config",
            "ds-cfg-max-password-age: 30 d"),
        passwordPolicy(
            "Warning Policy",
            "ds-cfg-default-password-storage-scheme: cn=Salted SHA-512,cn=Password Storage Schemes,cn=config",
            "ds-cfg-max-password-age: 30 d",
            "ds-cfg-password-expiration-warning-interval: 60 d"));
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(
          PEOPLE,
          new Modification(
              ModificationType.ADD,
              "aci",
              "(targetattr=\"userPassword\")(version 3.0;"
                  + " acl \"helpdesk\"; allow (write) userdn=\"ldap:///"
                  + ADMIN
                  + " || ldap:///"
                  + BOB
                  + "\";)"));
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void lockout_after_failures_then_unlock_after_the_duration() throws Exception {
    String dn = "uid=locky," + PEOPLE;
    for (int i = 0; i < 3; i++) {
      assertThat(bindResult(dn, "wrong-password").getResultCode())
          .isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }
    LDAPException locked = bindFailure(dn, PASSWORD);
    assertThat(locked.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    assertThat(ppolicy(locked.getResponseControls()).getErrorType())
        .isEqualTo(DraftBeheraLDAPPasswordPolicy10ErrorType.ACCOUNT_LOCKED);
    try (LDAPConnection root = server.rootConnection()) {
      assertThat(read(root, dn, "+", "*").hasAttribute("pwdAccountLockedTime")).isTrue();
    }
    CLOCK.advance(Duration.ofMillis(2_200));
    assertThat(bindResult(dn, PASSWORD).getResultCode()).isEqualTo(ResultCode.SUCCESS);
    try (LDAPConnection root = server.rootConnection()) {
      Entry state = read(root, dn, "*", "+");
      assertThat(state.hasAttribute("pwdAccountLockedTime")).isFalse();
      assertThat(state.hasAttribute("pwdFailureTime")).isFalse();
    }
  }

  @Test
  void reset_password_must_be_changed_before_anything_else() throws Exception {
    String dn = "uid=resetme," + PEOPLE;
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "reset-by-admin"));
    }
    try (LDAPConnection user = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      BindResult bound = user.bind(withControl(dn, "reset-by-admin"));
      assertThat(bound.getResultCode()).isEqualTo(ResultCode.SUCCESS);
      assertThat(ppolicy(bound.getResponseControls()).getErrorType())
          .isEqualTo(DraftBeheraLDAPPasswordPolicy10ErrorType.CHANGE_AFTER_RESET);
      assertCode(
          () -> user.search(PEOPLE, SearchScope.SUB, "(uid=bob)"),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertCode(
          () -> user.modify(dn, new Modification(ModificationType.REPLACE, "description", "x")),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      user.modify(dn, new Modification(ModificationType.REPLACE, "userPassword", "chosen-by-user"));
      assertThat(user.search(PEOPLE, SearchScope.SUB, "(uid=bob)").getEntryCount()).isEqualTo(1);
    }
    try (LDAPConnection user = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      BindResult bound = user.bind(withControl(dn, "chosen-by-user"));
      assertThat(
              bound.getResponseControl(
                  DraftBeheraLDAPPasswordPolicy10ResponseControl.PASSWORD_POLICY_RESPONSE_OID))
          .isNull();
      assertThat(user.search(PEOPLE, SearchScope.SUB, "(uid=bob)").getEntryCount()).isEqualTo(1);
    }
  }

  @Test
  void history_and_minimum_length_refuse_weak_changes() throws Exception {
    String dn = "uid=hist," + PEOPLE;
    try (LDAPConnection user = bind(server, dn, PASSWORD)) {
      assertCode(() -> user.modify(dn, replacePassword("short")), ResultCode.CONSTRAINT_VIOLATION);
      assertCode(() -> user.modify(dn, replacePassword(PASSWORD)), ResultCode.CONSTRAINT_VIOLATION);
      user.modify(dn, replacePassword("second-password"));
      assertCode(() -> user.modify(dn, replacePassword(PASSWORD)), ResultCode.CONSTRAINT_VIOLATION);
      user.modify(dn, replacePassword("third-password"));
      assertCode(
          () -> user.modify(dn, replacePassword("second-password")),
          ResultCode.CONSTRAINT_VIOLATION);
      assertCode(
          () -> user.modify(dn, replacePassword("{SSHA}AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")),
          ResultCode.CONSTRAINT_VIOLATION);
    }
    try (LDAPConnection root = server.rootConnection()) {
      Entry state = read(root, dn, "pwdHistory", "pwdChangedTime");
      assertThat(state.getAttributeValues("pwdHistory")).hasSize(2);
      assertThat(state.hasAttribute("pwdChangedTime")).isTrue();
    }
    try (LDAPConnection bob = bind(server, BOB, BOB_PASSWORD)) {
      assertThat(read(bob, dn, "pwdHistory").hasAttribute("pwdHistory")).isFalse();
    }
  }

  @Test
  void an_added_entry_s_password_must_pass_the_policy_too() throws Exception {
    String dn = "uid=added," + PEOPLE;
    try (LDAPConnection root = server.rootConnection()) {
      // As in OpenDJ, the policy's length and validators hold for an add, even by an administrator
      // (skip-validation-for-administrators is not offered).
      assertCode(
          () -> root.add(SecurityFixture.person("added", "short")),
          ResultCode.CONSTRAINT_VIOLATION);
      assertThat(root.getEntry(dn)).isNull();
      root.add(SecurityFixture.person("added", "long-enough-password"));
      assertThat(root.getEntry(dn, "userPassword").getAttributeValue("userPassword"))
          .startsWith("{")
          .doesNotContain("long-enough-password");
    }
    try (LDAPConnection user = bind(server, dn, "long-enough-password")) {
      assertThat(user.getConnectedAddress()).isNotNull();
    }
  }

  @Test
  void new_passwords_are_hashed_with_the_policy_scheme() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      // Set up with the built-in default (SSHA512); the configured default policy says SSHA256.
      assertThat(read(root, "uid=old," + PEOPLE, "userPassword").getAttributeValue("userPassword"))
          .startsWith("{SSHA512}");
      root.modify("uid=hashme," + PEOPLE, replacePassword("rehashed-password"));
      assertThat(
              read(root, "uid=hashme," + PEOPLE, "userPassword").getAttributeValue("userPassword"))
          .startsWith("{SSHA256}");
    }
    assertThat(bindResult("uid=hashme," + PEOPLE, "rehashed-password").getResultCode())
        .isEqualTo(ResultCode.SUCCESS);
  }

  @Test
  void an_add_and_a_modify_hash_with_the_scheme_of_the_entrys_own_policy() throws Exception {
    String dn = "uid=policed," + PEOPLE;
    try (LDAPConnection root = server.rootConnection()) {
      // The default policy says SSHA256; the entry names one that says SSHA512, as import-ldif
      // honours.
      root.add(
          SecurityFixture.person(
              "policed", "policed-password", "ds-pwp-password-policy-dn: " + EXPIRED_POLICY));
      assertThat(read(root, dn, "userPassword").getAttributeValue("userPassword"))
          .startsWith("{SSHA512}");
      root.modify(dn, replacePassword("policed-password-2"));
      assertThat(read(root, dn, "userPassword").getAttributeValue("userPassword"))
          .startsWith("{SSHA512}");
      root.add(SecurityFixture.person("unpoliced", "unpoliced-password"));
      assertThat(
              read(root, "uid=unpoliced," + PEOPLE, "userPassword")
                  .getAttributeValue("userPassword"))
          .startsWith("{SSHA256}");
    }
    assertThat(bindResult(dn, "policed-password-2").getResultCode()).isEqualTo(ResultCode.SUCCESS);
  }

  @Test
  void expired_password_is_refused_and_a_near_expiry_is_warned() throws Exception {
    LDAPException expired = bindFailure("uid=old," + PEOPLE, PASSWORD);
    assertThat(expired.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    assertThat(ppolicy(expired.getResponseControls()).getErrorType())
        .isEqualTo(DraftBeheraLDAPPasswordPolicy10ErrorType.PASSWORD_EXPIRED);
    try (LDAPConnection user = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      BindResult bound = user.bind(withControl("uid=warned," + PEOPLE, PASSWORD));
      DraftBeheraLDAPPasswordPolicy10ResponseControl warning = ppolicy(bound.getResponseControls());
      assertThat(warning.getWarningType())
          .isEqualTo(DraftBeheraLDAPPasswordPolicy10WarningType.TIME_BEFORE_EXPIRATION);
      assertThat(warning.getWarningValue()).isBetween(29 * 86_400, 30 * 86_400);
    }
  }

  @Test
  void password_modify_by_the_user_with_the_old_password() throws Exception {
    String dn = "uid=selfpm," + PEOPLE;
    try (LDAPConnection user = bind(server, dn, PASSWORD)) {
      PasswordModifyExtendedResult wrong =
          (PasswordModifyExtendedResult)
              user.processExtendedOperation(
                  new PasswordModifyExtendedRequest(null, "not-the-password", "new-self-password"));
      assertThat(wrong.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS);
      PasswordModifyExtendedResult changed =
          (PasswordModifyExtendedResult)
              user.processExtendedOperation(
                  new PasswordModifyExtendedRequest(null, PASSWORD, "new-self-password"));
      assertThat(changed.getResultCode()).isEqualTo(ResultCode.SUCCESS);
      assertThat(changed.getGeneratedPassword()).isNull();
    }
    assertThat(bindResult(dn, "new-self-password").getResultCode()).isEqualTo(ResultCode.SUCCESS);
    assertThat(bindResult(dn, PASSWORD).getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS);
  }

  @Test
  void password_modify_generates_a_password_when_none_is_given() throws Exception {
    String dn = "uid=genpm," + PEOPLE;
    String generated;
    try (LDAPConnection user = bind(server, dn, PASSWORD)) {
      PasswordModifyExtendedResult result =
          (PasswordModifyExtendedResult)
              user.processExtendedOperation(
                  new PasswordModifyExtendedRequest(null, PASSWORD, (String) null));
      assertThat(result.getResultCode()).isEqualTo(ResultCode.SUCCESS);
      generated = result.getGeneratedPassword();
    }
    assertThat(generated).hasSizeGreaterThanOrEqualTo(8);
    assertThat(bindResult(dn, generated).getResultCode()).isEqualTo(ResultCode.SUCCESS);
  }

  @Test
  void password_modify_of_another_user_needs_the_password_reset_privilege() throws Exception {
    String dn = "uid=target," + PEOPLE;
    try (LDAPConnection bob = bind(server, BOB, BOB_PASSWORD)) {
      // bob has the write right (ACI) but not the password-reset privilege
      assertThat(
              bob.processExtendedOperation(
                      new PasswordModifyExtendedRequest("dn:" + dn, null, "by-bob-123"))
                  .getResultCode())
          .isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
    try (LDAPConnection admin = bind(server, ADMIN, ADMIN_PASSWORD)) {
      assertThat(
              admin
                  .processExtendedOperation(
                      new PasswordModifyExtendedRequest("dn:" + dn, null, "by-admin-123"))
                  .getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
    }
    try (LDAPConnection user = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      BindResult bound = user.bind(withControl(dn, "by-admin-123"));
      assertThat(ppolicy(bound.getResponseControls()).getErrorType())
          .isEqualTo(DraftBeheraLDAPPasswordPolicy10ErrorType.CHANGE_AFTER_RESET);
    }
    try (LDAPConnection anonymous = server.anonymousConnection()) {
      assertThat(
              anonymous
                  .processExtendedOperation(
                      new PasswordModifyExtendedRequest(null, null, "anything-1"))
                  .getResultCode())
          .isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
    }
  }

  // ---------------------------------------------------------------- helpers

  private static Modification replacePassword(String password) {
    return new Modification(ModificationType.REPLACE, "userPassword", password);
  }

  private static SimpleBindRequest withControl(String dn, String password) {
    return new SimpleBindRequest(dn, password, new DraftBeheraLDAPPasswordPolicy10RequestControl());
  }

  private static BindResult bindResult(String dn, String password) throws LDAPException {
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      return c.bind(withControl(dn, password));
    } catch (LDAPException e) {
      return new BindResult(e.toLDAPResult());
    }
  }

  private static LDAPException bindFailure(String dn, String password) throws LDAPException {
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      c.bind(withControl(dn, password));
      throw new AssertionError("the bind as " + dn + " succeeded");
    } catch (LDAPException e) {
      return e;
    }
  }

  private static DraftBeheraLDAPPasswordPolicy10ResponseControl ppolicy(Control[] controls)
      throws LDAPException {
    for (Control c : controls) {
      if (c.getOID()
          .equals(DraftBeheraLDAPPasswordPolicy10ResponseControl.PASSWORD_POLICY_RESPONSE_OID)) {
        return new DraftBeheraLDAPPasswordPolicy10ResponseControl(
            c.getOID(), c.isCritical(), c.getValue());
      }
    }
    throw new AssertionError("no password policy response control");
  }
}
