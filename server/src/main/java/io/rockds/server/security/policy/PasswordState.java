package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.util.StaticUtils;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/**
 * The password policy state of one user entry, kept in draft-behera's operational attributes:
 * {@code pwdFailureTime} (one value per consecutive failed bind), {@code pwdAccountLockedTime},
 * {@code pwdChangedTime}, {@code pwdHistory} ({@code time#syntaxOID#length#hash}) and {@code
 * pwdReset}.
 */
final class PasswordState {
  static final String PASSWORD = "userPassword";
  static final String FAILURE_TIME = "pwdFailureTime";
  static final String LOCKED_TIME = "pwdAccountLockedTime";
  static final String CHANGED_TIME = "pwdChangedTime";
  static final String HISTORY = "pwdHistory";
  static final String RESET = "pwdReset";
  static final String DISABLED = "ds-pwp-account-disabled";
  static final String ACCOUNT_EXPIRATION = "ds-pwp-account-expiration-time";
  static final String CREATE_TIMESTAMP = "createTimestamp";

  /** What authentication reads here ({@link #historyValues} is read by password changes only). */
  static final List<String> READ_BY_AUTHENTICATION =
      List.of(
          PASSWORD,
          FAILURE_TIME,
          LOCKED_TIME,
          CHANGED_TIME,
          CREATE_TIMESTAMP,
          RESET,
          DISABLED,
          ACCOUNT_EXPIRATION);

  /** draft-behera: a locked time of 000001010000Z means locked until an administrator unlocks. */
  private static final String PERMANENT_LOCK = "000001010000Z";

  private static final String OCTET_STRING_SYNTAX = "1.3.6.1.4.1.1466.115.121.1.40";

  private final Entry entry;

  PasswordState(Entry entry) {
    this.entry = entry;
  }

  List<Instant> failureTimes() {
    List<Instant> times = new ArrayList<>();
    String[] values = entry.getAttributeValues(FAILURE_TIME);
    if (values != null) {
      for (String v : values) {
        Instant t = time(v);
        if (t != null) {
          times.add(t);
        }
      }
    }
    return times;
  }

  boolean hasFailuresOrLock() {
    return entry.hasAttribute(FAILURE_TIME) || entry.hasAttribute(LOCKED_TIME);
  }

  /**
   * True while the account is locked out under {@code policy} at {@code now}: since its {@code
   * pwdAccountLockedTime}, or, without one, since the failure that brought {@code pwdFailureTime}
   * to the policy's count (in a replication group, failures prepared on several servers at once may
   * reach the count before any of them saw it reached, and so before any set the locked time).
   */
  boolean isLocked(PasswordPolicy policy, Instant now) {
    String locked = entry.getAttributeValue(LOCKED_TIME);
    Instant since;
    if (locked != null) {
      if (locked.equals(PERMANENT_LOCK)) {
        return true;
      }
      since = time(locked);
    } else if (policy.lockoutFailureCount() > 0 && entry.hasAttribute(FAILURE_TIME)) {
      List<Instant> failures = failureTimes();
      if (failures.size() < policy.lockoutFailureCount()) {
        return false;
      }
      since = failures.stream().max(Instant::compareTo).orElseThrow();
    } else {
      return false;
    }
    if (policy.lockoutDuration().isZero()) {
      return true;
    }
    return since != null && now.isBefore(since.plus(policy.lockoutDuration()));
  }

  /** When the password was last set: pwdChangedTime, else createTimestamp; null if neither. */
  Instant changedTime() {
    String v = entry.getAttributeValue(CHANGED_TIME);
    return time(v != null ? v : entry.getAttributeValue(CREATE_TIMESTAMP));
  }

  /** OpenDJ's {@code ds-pwp-account-disabled: true}: no authentication at all. */
  boolean isDisabled() {
    return "TRUE".equalsIgnoreCase(entry.getAttributeValue(DISABLED));
  }

  /** Past OpenDJ's {@code ds-pwp-account-expiration-time}. */
  boolean isAccountExpired(Instant now) {
    Instant expires = time(entry.getAttributeValue(ACCOUNT_EXPIRATION));
    return expires != null && !now.isBefore(expires);
  }

  boolean isReset() {
    return "TRUE".equalsIgnoreCase(entry.getAttributeValue(RESET));
  }

  /** The time left before the password expires; null when it never does. */
  Duration untilExpiry(PasswordPolicy policy, Instant now) {
    if (policy.maxAge().isZero()) {
      return null; // Without a maximum age, no need to parse the change time on every bind.
    }
    Instant changed = changedTime();
    if (changed == null) {
      return null;
    }
    return Duration.between(now, changed.plus(policy.maxAge()));
  }

  /** The stored hashes of previous passwords, oldest first. */
  List<String> historyValues() {
    String[] values = entry.getAttributeValues(HISTORY);
    List<String> sorted = values == null ? new ArrayList<>() : new ArrayList<>(List.of(values));
    sorted.sort(null); // generalized time first: lexical order is time order
    return sorted;
  }

  /** The hash inside a pwdHistory value. */
  static String historyHash(String value) {
    String[] parts = value.split("#", 4);
    return parts.length == 4 ? parts[3] : value;
  }

  static String historyValue(Instant when, String hash) {
    return StaticUtils.encodeGeneralizedTime(Date.from(when))
        + "#"
        + OCTET_STRING_SYNTAX
        + "#"
        + hash.length()
        + "#"
        + hash;
  }

  /**
   * After a failed bind: one more failure time, and the lock once the count is reached. The failure
   * is added and only the oldest times this state holds are deleted (to keep as many as the lockout
   * needs, so the attribute stays small), never replaced: failures recorded meanwhile by another
   * server of a replication group are kept and count too.
   */
  static List<Modification> afterFailure(PasswordState state, PasswordPolicy policy, Instant now) {
    List<Modification> mods = new ArrayList<>();
    String[] recorded = state.entry.getAttributeValues(FAILURE_TIME);
    List<String> failures =
        recorded == null ? new ArrayList<>() : new ArrayList<>(List.of(recorded));
    failures.sort(null); // generalized time: lexical order is time order
    int keep = Math.max(1, policy.lockoutFailureCount());
    List<String> dropped = failures.subList(0, Math.max(0, failures.size() + 1 - keep));
    if (!dropped.isEmpty()) {
      mods.add(
          new Modification(ModificationType.DELETE, FAILURE_TIME, dropped.toArray(String[]::new)));
    }
    mods.add(new Modification(ModificationType.ADD, FAILURE_TIME, format(now)));
    if (policy.lockoutFailureCount() > 0 && failures.size() + 1 >= policy.lockoutFailureCount()) {
      mods.add(new Modification(ModificationType.REPLACE, LOCKED_TIME, format(now)));
    }
    return mods;
  }

  /** After a successful bind, or a reset by an administrator: failures and lock forgotten. */
  static List<Modification> clearFailures() {
    return List.of(
        new Modification(ModificationType.REPLACE, FAILURE_TIME),
        new Modification(ModificationType.REPLACE, LOCKED_TIME));
  }

  /** Millisecond generalized time, so failures within one second stay distinct values. */
  static String format(Instant t) {
    return StaticUtils.encodeGeneralizedTime(Date.from(t));
  }

  private static Instant time(String value) {
    if (value == null) {
      return null;
    }
    try {
      return StaticUtils.decodeGeneralizedTime(value).toInstant();
    } catch (ParseException e) {
      return null;
    }
  }
}
