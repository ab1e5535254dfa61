package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.ConfigEntry;
import io.rockds.config.ConfigException;
import java.time.Duration;

/**
 * One password policy of {@code cn=Password Policies,cn=config}: a practical subset of
 * draft-behera-ldap-password-policy with OpenDJ's property names. A zero duration or count
 * switches the feature off; a zero lockout duration locks until an administrator resets the
 * password.
 *
 * @param storageScheme the scheme new passwords are hashed with, e.g. {@code SSHA512}
 * @param minLength the fewest characters a new clear-text password may have
 * @param historyCount how many previous passwords may not be reused
 * @param maxAge how long a password stays valid after it was set
 * @param expirationWarning how long before expiry the bind response control warns
 * @param lockoutFailureCount consecutive failed binds that lock the account
 * @param lockoutDuration how long a lockout lasts
 * @param forceChangeOnReset a password set by someone else must be changed at next bind
 * @param allowUserChange users may change their own password
 * @param changeRequiresCurrent Password Modify by the user themselves must give the old password
 */
public record PasswordPolicy(DN dn, String storageScheme, int minLength, int historyCount, Duration maxAge,
    Duration expirationWarning, int lockoutFailureCount, Duration lockoutDuration, boolean forceChangeOnReset,
    boolean allowUserChange, boolean changeRequiresCurrent) {

  /** The policy used when the configuration has none: nothing enforced beyond hashing. */
  static PasswordPolicy builtIn(DN dn, String storageScheme) {
    return new PasswordPolicy(dn, storageScheme, 0, 0, Duration.ZERO, Duration.ZERO, 0, Duration.ZERO, false,
        true, false);
  }

  static PasswordPolicy from(ConfigEntry e, String defaultScheme) throws ConfigException {
    DN dn;
    try {
      dn = e.entry().getParsedDN();
    } catch (LDAPException ex) {
      throw new ConfigException(e.entry().getDN() + ": " + ex.getExceptionMessage(), ex);
    }
    return new PasswordPolicy(
        dn,
        schemeName(e.string("default-password-storage-scheme", defaultScheme)),
        (int) e.integer("min-password-length", 0, 0, 4096),
        (int) e.integer("password-history-count", 0, 0, 1000),
        duration(e, "max-password-age"),
        duration(e, "password-expiration-warning-interval"),
        (int) e.integer("lockout-failure-count", 0, 0, 10_000),
        duration(e, "lockout-duration"),
        e.bool("force-change-on-reset", false),
        e.bool("allow-user-password-changes", true),
        e.bool("password-change-requires-current-password", false));
  }

  /** Accepts a scheme name ({@code SSHA512}) or OpenDJ's scheme entry DN ({@code cn=Salted SHA-512,...}). */
  private static String schemeName(String value) {
    String v = value.trim();
    if (!v.regionMatches(true, 0, "cn=", 0, 3)) {
      return v;
    }
    String cn = v.substring(3, v.contains(",") ? v.indexOf(',') : v.length()).trim();
    return switch (cn.toLowerCase(java.util.Locale.ROOT)) {
      case "salted sha-1" -> "SSHA";
      case "salted sha-256" -> "SSHA256";
      case "salted sha-384" -> "SSHA384";
      case "salted sha-512" -> "SSHA512";
      case "pbkdf2-hmac-sha256" -> "PBKDF2-SHA256";
      case "pbkdf2-hmac-sha512" -> "PBKDF2-SHA512";
      case "bcrypt" -> "BCRYPT";
      case "argon2" -> "ARGON2";
      case "clear" -> "CLEAR";
      default -> cn.toUpperCase(java.util.Locale.ROOT);
    };
  }

  private static Duration duration(ConfigEntry e, String property) throws ConfigException {
    String value = e.string(property, null);
    return value == null ? Duration.ZERO : Durations.parse(value, e.entry().getDN() + ": ds-cfg-" + property);
  }
}
