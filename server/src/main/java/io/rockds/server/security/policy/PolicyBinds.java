package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ErrorType;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ResponseControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10WarningType;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import io.rockds.server.UserEntries;
import io.rockds.server.security.EntryLookup;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A password bind against an entry, under its password policy: a locked account is refused
 * before the password is even checked; a failure is recorded (and locks the account at the
 * configured count) only when lockout is on, so plain binds never write; a success clears
 * earlier failures, refuses an expired password, and restricts a reset password to changing it.
 * Every refusal is invalidCredentials (49), so a client cannot tell a locked account from a bad
 * password unless it asked for the password policy control.
 */
final class PolicyBinds {
  static final String CONTROL_OID = DraftBeheraLDAPPasswordPolicy10ResponseControl.PASSWORD_POLICY_RESPONSE_OID;
  private static final String INVALID = "Invalid credentials";

  private final PasswordPolicies policies;
  private final EntryLookup entries;
  private final ResetRestrictions restrictions;
  private final Clock clock;

  PolicyBinds(PasswordPolicies policies, EntryLookup entries, ResetRestrictions restrictions, Clock clock) {
    this.policies = policies;
    this.entries = entries;
    this.restrictions = restrictions;
    this.clock = clock;
  }

  BindOutcome authenticate(ClientConnection client, DN dn, byte[] password, List<Control> requestControls)
      throws LDAPException {
    boolean wantsControl = requestControls.stream().anyMatch(c -> c.getOID().equals(CONTROL_OID));
    Entry entry = entries.get(dn);
    if (entry == null || !entry.hasAttribute(PasswordState.PASSWORD)) {
      throw new LDAPException(ResultCode.INVALID_CREDENTIALS, INVALID);
    }
    PasswordPolicy policy = policies.policyFor(entry);
    PasswordState state = new PasswordState(entry);
    Instant now = clock.instant();
    if (state.isLocked(policy, now)) {
      throw refused(wantsControl, DraftBeheraLDAPPasswordPolicy10ErrorType.ACCOUNT_LOCKED);
    }
    if (!matches(password, entry, policy)) {
      if (policy.lockoutFailureCount() > 0) {
        entries.update(dn, current -> PasswordState.afterFailure(new PasswordState(current), policy, now));
      }
      throw refused(wantsControl, null);
    }
    if (state.hasFailuresOrLock()) {
      entries.update(dn, current -> PasswordState.clearFailures());
    }
    Duration left = state.untilExpiry(policy, now);
    if (left != null && (left.isNegative() || left.isZero())) {
      throw refused(wantsControl, DraftBeheraLDAPPasswordPolicy10ErrorType.PASSWORD_EXPIRED);
    }
    Identity identity = UserEntries.identityOf(entry);
    DraftBeheraLDAPPasswordPolicy10ResponseControl control = null;
    if (policy.forceChangeOnReset() && state.isReset()) {
      restrictions.restrict(client, identity);
      control = new DraftBeheraLDAPPasswordPolicy10ResponseControl(null, -1,
          DraftBeheraLDAPPasswordPolicy10ErrorType.CHANGE_AFTER_RESET);
    } else if (left != null && left.compareTo(policy.expirationWarning()) < 0) {
      control = new DraftBeheraLDAPPasswordPolicy10ResponseControl(
          DraftBeheraLDAPPasswordPolicy10WarningType.TIME_BEFORE_EXPIRATION,
          (int) Math.min(Integer.MAX_VALUE, left.toSeconds()), null);
    }
    return new BindOutcome(identity, wantsControl && control != null ? List.of(control) : List.of());
  }

  private boolean matches(byte[] password, Entry entry, PasswordPolicy policy) {
    for (byte[] stored : entry.getAttributeValueByteArrays(PasswordState.PASSWORD)) {
      if (policies.schemesFor(policy).verify(password, stored)) {
        return true;
      }
    }
    return false;
  }

  private static LDAPException refused(boolean wantsControl, DraftBeheraLDAPPasswordPolicy10ErrorType error) {
    Control[] controls = wantsControl && error != null
        ? new Control[] {new DraftBeheraLDAPPasswordPolicy10ResponseControl(null, -1, error)}
        : new Control[0];
    return new LDAPException(ResultCode.INVALID_CREDENTIALS, INVALID, null, null, controls);
  }
}
