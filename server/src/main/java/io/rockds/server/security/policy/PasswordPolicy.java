package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.ConfigEntry;
import io.rockds.config.ConfigException;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;
import java.time.Duration;
import java.util.List;

/**
 * One password policy of {@code cn=Password Policies,cn=config}: a practical subset of
 * draft-behera-ldap-password-policy with OpenDJ's property names. A zero duration or count switches
 * the feature off; a zero lockout duration locks until an administrator resets the password.
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
 * @param requireSecureAuthentication passwords are accepted for authentication only over TLS
 * @param allowPreEncoded users (not only administrators) may set an already hashed value
 * @param validators what a new clear-text password must pass
 */
public record PasswordPolicy(
    DN dn,
    String storageScheme,
    int minLength,
    int historyCount,
    Duration maxAge,
    Duration expirationWarning,
    int lockoutFailureCount,
    Duration lockoutDuration,
    boolean forceChangeOnReset,
    boolean allowUserChange,
    boolean changeRequiresCurrent,
    boolean requireSecureAuthentication,
    boolean allowPreEncoded,
    List<PasswordValidator> validators) {

  public PasswordPolicy {
    validators = List.copyOf(validators);
  }

  /** The policy used when the configuration has none: nothing enforced beyond hashing. */
  static PasswordPolicy builtIn(DN dn, String storageScheme) {
    return new PasswordPolicy(
        dn,
        storageScheme,
        0,
        0,
        Duration.ZERO,
        Duration.ZERO,
        0,
        Duration.ZERO,
        false,
        true,
        false,
        false,
        false,
        List.of());
  }

  /** The policy of a configuration entry whose storage scheme entry names {@code storageScheme}. */
  static PasswordPolicy from(
      ConfigEntry e, String storageScheme, List<PasswordValidator> validators)
      throws ConfigException {
    DN dn;
    try {
      dn = e.entry().getParsedDN();
    } catch (LDAPException ex) {
      throw new ConfigException(e.entry().getDN() + ": " + ex.getExceptionMessage(), ex);
    }
    PropertyReader r = new PropertyReader(e.entry(), ConfigModel.PASSWORD_POLICY);
    return new PasswordPolicy(
        dn,
        storageScheme,
        r.integer("min-password-length").intValue(),
        r.integer("password-history-count").intValue(),
        Duration.ofMillis(r.millis("max-password-age")),
        Duration.ofMillis(r.millis("password-expiration-warning-interval")),
        r.integer("lockout-failure-count").intValue(),
        Duration.ofMillis(r.millis("lockout-duration")),
        r.bool("force-change-on-reset"),
        r.bool("allow-user-password-changes"),
        r.bool("password-change-requires-current-password"),
        r.bool("require-secure-authentication"),
        r.bool("allow-pre-encoded-passwords"),
        validators);
  }
}
