package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ErrorType;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ResponseControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10WarningType;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import io.rockds.server.RunOnWorker;
import io.rockds.server.logging.OperationRecord;
import io.rockds.server.security.EntryLookup;
import io.rockds.server.security.RootUsers;
import io.rockds.server.security.password.PasswordSchemes;
import io.rockds.storage.AttributeProjection;
import io.rockds.storage.ReadFrom;
import io.rockds.storage.StorageException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one gate every authentication goes through: simple binds, SASL PLAIN and EXTERNAL, the old
 * password of Password Modify, and any mechanism added later. It applies the password policy of the
 * entry authenticating:
 *
 * <ul>
 *   <li>{@code require-secure-authentication}: a password sent without TLS or StartTLS gets
 *       confidentialityRequired (13), before anything is looked up;
 *   <li>an absent entry costs the same password verification as a present one (a decoy hash), so
 *       timing does not tell which DNs exist;
 *   <li>a disabled ({@code ds-pwp-account-disabled}), expired ({@code
 *       ds-pwp-account-expiration-time}) or locked account is refused whatever the password;
 *   <li>a wrong password is a failure: with lockout on it is counted in {@code pwdFailureTime} and
 *       locks the account at {@code lockout-failure-count}; a right one clears earlier failures;
 *   <li>for a bind, an expired password is refused and a reset one restricts the connection to
 *       changing it.
 * </ul>
 *
 * Every refusal is invalidCredentials (49) with the same message, carrying the password policy
 * control's reason only to a client that asked for it. The identity tried is reported to the access
 * log ({@code authDN}) whether or not it succeeded.
 */
public final class AuthenticationGate {
  private static final Logger LOG = LoggerFactory.getLogger(AuthenticationGate.class);
  static final String CONTROL_OID =
      DraftBeheraLDAPPasswordPolicy10ResponseControl.PASSWORD_POLICY_RESPONSE_OID;
  private static final String INVALID = "Invalid credentials";

  /**
   * Every attribute of the entry authentication reads (its password, its policy and the state kept
   * under it, its identity's privileges and limits), so all it decodes of the entry: a user's photo
   * and the rest stay undecoded, and a group's members unread. Entries are read without a schema,
   * so they find an attribute by its whole description in lower case, as kept here.
   */
  private static final AttributeProjection READS = reads();

  private static AttributeProjection reads() {
    Set<String> read = new HashSet<>();
    for (List<String> names :
        List.of(
            PasswordState.READ_BY_AUTHENTICATION,
            PasswordPolicies.POLICY_ATTRIBUTES,
            EntryLookup.IDENTITY_ATTRIBUTES)) {
      names.forEach(name -> read.add(name.toLowerCase(Locale.ROOT)));
    }
    return new AttributeProjection(
        description -> read.contains(description.toLowerCase(Locale.ROOT)));
  }

  /**
   * Why the caller authenticates: a bind sets the connection's identity, a password change does
   * not.
   */
  public enum Purpose {
    BIND,
    PASSWORD_CHANGE
  }

  private final PasswordPolicies policies;
  private final EntryLookup entries;
  private final RootUsers rootUsers;
  private final ResetRestrictions restrictions;
  private final PolicyWrites writes;
  private final Clock clock;

  AuthenticationGate(
      PasswordPolicies policies,
      EntryLookup entries,
      RootUsers rootUsers,
      ResetRestrictions restrictions,
      PolicyWrites writes,
      Clock clock) {
    this.policies = policies;
    this.entries = entries;
    this.rootUsers = rootUsers;
    this.restrictions = restrictions;
    this.writes = writes;
    this.clock = clock;
  }

  /**
   * Authenticates {@code dn} (a root user or an entry) with {@code password}.
   *
   * @param dn null when the caller could not resolve the name it was given (refused, at the cost of
   *     a real verification)
   */
  public BindOutcome password(
      ClientConnection client,
      DN dn,
      byte[] password,
      List<Control> requestControls,
      Purpose purpose)
      throws LDAPException {
    return password(client, dn, password, requestControls, purpose, false);
  }

  /**
   * {@link #password} for a simple bind run on an event loop, where nothing may wait: it gives way
   * to a worker ({@link RunOnWorker}, before it changed anything) when it would verify a password
   * stored with a slow scheme (PBKDF2, bcrypt, Argon2, crypt), read the entry from disk (its
   * records are read from memory only here) or write password policy state (failures counted toward
   * a lockout, or cleared by a success), and it refuses a wrong password under a lockout policy on
   * a worker too (after verifying it here), so that an absent entry does the same. Otherwise it
   * answers as {@link #password} does.
   */
  public BindOutcome passwordOnEventLoop(
      ClientConnection client, DN dn, byte[] password, List<Control> requestControls)
      throws LDAPException {
    return password(client, dn, password, requestControls, Purpose.BIND, true);
  }

  private BindOutcome password(
      ClientConnection client,
      DN dn,
      byte[] password,
      List<Control> requestControls,
      Purpose purpose,
      boolean onEventLoop)
      throws LDAPException {
    if (dn != null) {
      OperationRecord.current().authenticating(dn);
    }
    if (dn != null && rootUsers.isRoot(dn)) {
      requireSecure(client, policies.defaultPolicy());
      giveWayIf(onEventLoop && !rootUsers.verifiesQuickly(dn));
      Identity root = rootUsers.authenticate(dn, password);
      if (root == null) {
        throw refused(false, null);
      }
      return new BindOutcome(root, List.of());
    }
    Entry entry = dn == null ? null : read(dn, onEventLoop);
    PasswordPolicy policy = entry == null ? policies.defaultPolicy() : policies.policyFor(entry);
    requireSecure(client, policy);
    if (entry == null || !entry.hasAttribute(PasswordState.PASSWORD)) {
      PasswordSchemes schemes = policies.schemesFor(policy);
      giveWayIf(onEventLoop && !schemes.decoyVerifiesQuickly());
      schemes.verifyDecoy(password);
      // As a wrong password would under this policy: see admit.
      giveWayIf(onEventLoop && policy.lockoutFailureCount() > 0);
      throw refused(false, null);
    }
    return admit(client, entry, dn, policy, password, requestControls, purpose, onEventLoop);
  }

  /**
   * Authenticates the entry {@code dn} whose proof the caller already checked (a client certificate
   * verified by the TLS handshake): the account must still be usable.
   */
  public BindOutcome verified(ClientConnection client, DN dn, List<Control> requestControls)
      throws LDAPException {
    OperationRecord.current().authenticating(dn);
    Entry entry = entries.getReading(dn, READS, ReadFrom.ANYWHERE);
    if (entry == null) {
      throw new LDAPException(
          ResultCode.INVALID_CREDENTIALS, "No entry matches the client certificate subject " + dn);
    }
    return admit(
        client, entry, dn, policies.policyFor(entry), null, requestControls, Purpose.BIND, false);
  }

  /**
   * The policy checks of an existing entry, found by the name {@code named}; {@code password} null
   * when already proven.
   */
  private BindOutcome admit(
      ClientConnection client,
      Entry entry,
      DN named,
      PasswordPolicy policy,
      byte[] password,
      List<Control> requestControls,
      Purpose purpose,
      boolean onEventLoop)
      throws LDAPException {
    boolean wantsControl = wantsControl(requestControls);
    PasswordState state = new PasswordState(entry);
    Instant now = clock.instant();
    giveWayIf(onEventLoop && !verifiesQuickly(entry, policy));
    boolean matches = password == null || matches(password, entry, policy);
    if (state.isDisabled() || state.isAccountExpired(now) || state.isLocked(policy, now)) {
      throw refused(wantsControl, DraftBeheraLDAPPasswordPolicy10ErrorType.ACCOUNT_LOCKED);
    }
    // The entry's DN, as it is stored: the name it was found by unless written otherwise.
    DN dn = named.toString().equals(entry.getDN()) ? named : entry.getParsedDN();
    if (!matches) {
      if (policy.lockoutFailureCount() > 0) {
        giveWayIf(onEventLoop);
        keep(dn, PasswordState.afterFailure(state, policy, now));
      }
      throw refused(wantsControl, null);
    }
    // Nothing is written when there is nothing to forget: a plain successful bind stays a read.
    if (state.hasFailuresOrLock()) {
      giveWayIf(onEventLoop);
      keep(dn, PasswordState.clearFailures());
    }
    Identity identity = entries.identityOf(entry, dn);
    if (purpose == Purpose.PASSWORD_CHANGE || password == null) {
      return new BindOutcome(identity, List.of());
    }
    Duration left = state.untilExpiry(policy, now);
    if (left != null && (left.isNegative() || left.isZero())) {
      throw refused(wantsControl, DraftBeheraLDAPPasswordPolicy10ErrorType.PASSWORD_EXPIRED);
    }
    DraftBeheraLDAPPasswordPolicy10ResponseControl control = null;
    if (policy.forceChangeOnReset() && state.isReset()) {
      restrictions.restrict(client, identity);
      control =
          new DraftBeheraLDAPPasswordPolicy10ResponseControl(
              null, -1, DraftBeheraLDAPPasswordPolicy10ErrorType.CHANGE_AFTER_RESET);
    } else if (left != null && left.compareTo(policy.expirationWarning()) < 0) {
      control =
          new DraftBeheraLDAPPasswordPolicy10ResponseControl(
              DraftBeheraLDAPPasswordPolicy10WarningType.TIME_BEFORE_EXPIRATION,
              (int) Math.min(Integer.MAX_VALUE, left.toSeconds()),
              null);
    }
    return new BindOutcome(
        identity, wantsControl && control != null ? List.of(control) : List.of());
  }

  /**
   * Writes the state the bind changed, through the write path like any write, so that failures on
   * any server of a replication group count toward the lockout on all. The bind's answer does not
   * depend on it: when the state cannot be written (the entry was deleted meanwhile, or the group
   * has no majority and the write timed out) the bind is answered all the same and the state stays
   * as it was.
   */
  private void keep(DN dn, List<Modification> state) {
    try {
      writes.state(dn, state);
    } catch (LDAPException e) {
      LOG.warn("the password policy state of {} was not written: {}", dn, e.getMessage());
    }
  }

  /**
   * The entry authenticating, or null; on an event loop from memory only: an entry (or the {@code
   * dn2id} record naming it) on disk makes the bind give way to a worker, which reads it there, so
   * that a cold cache never stalls an event loop and every connection on it.
   */
  private Entry read(DN dn, boolean onEventLoop) throws LDAPException {
    if (!onEventLoop) {
      return entries.getReading(dn, READS, ReadFrom.ANYWHERE);
    }
    try {
      return entries.getReading(dn, READS, ReadFrom.MEMORY);
    } catch (StorageException e) {
      giveWayIf(e.kind() == StorageException.Kind.NOT_IN_MEMORY);
      throw e;
    }
  }

  /**
   * A bind on an event loop that is about to wait (a slow verification, a write, a read from disk)
   * gives way to a worker, which runs it again from the start.
   */
  private static void giveWayIf(boolean mustGiveWay) {
    if (mustGiveWay) {
      throw RunOnWorker.INSTANCE;
    }
  }

  /** Whether every stored password of {@code entry} is in a scheme that verifies quickly. */
  private boolean verifiesQuickly(Entry entry, PasswordPolicy policy) {
    PasswordSchemes schemes = policies.schemesFor(policy);
    for (byte[] stored : entry.getAttributeValueByteArrays(PasswordState.PASSWORD)) {
      if (!schemes.verifiesQuickly(stored)) {
        return false;
      }
    }
    return true;
  }

  /** Checks every stored value, so the time taken does not depend on which one matches. */
  private boolean matches(byte[] password, Entry entry, PasswordPolicy policy) {
    boolean matched = false;
    for (byte[] stored : entry.getAttributeValueByteArrays(PasswordState.PASSWORD)) {
      matched |= policies.schemesFor(policy).verify(password, stored);
    }
    return matched;
  }

  private static boolean wantsControl(List<Control> requestControls) {
    for (Control control : requestControls) {
      if (control.getOID().equals(CONTROL_OID)) {
        return true;
      }
    }
    return false;
  }

  private static void requireSecure(ClientConnection client, PasswordPolicy policy)
      throws LDAPException {
    if (policy.requireSecureAuthentication() && !client.ldap().isSecure()) {
      throw new LDAPException(
          ResultCode.CONFIDENTIALITY_REQUIRED,
          "Passwords are accepted only over TLS: use LDAPS or StartTLS (require-secure-authentication)");
    }
  }

  private static LDAPException refused(
      boolean wantsControl, DraftBeheraLDAPPasswordPolicy10ErrorType error) {
    Control[] controls =
        wantsControl && error != null
            ? new Control[] {new DraftBeheraLDAPPasswordPolicy10ResponseControl(null, -1, error)}
            : new Control[0];
    return new LDAPException(ResultCode.INVALID_CREDENTIALS, INVALID, null, null, controls);
  }
}
