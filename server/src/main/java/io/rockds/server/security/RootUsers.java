package io.rockds.server.security;

import com.unboundid.ldap.sdk.DN;
import io.rockds.config.RootDnConfig;
import io.rockds.server.Identity;
import io.rockds.server.security.policy.PasswordPolicies;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;

/**
 * The root DN users of {@code cn=Root DNs,cn=config}. They live in the configuration, not in a
 * backend, so an administrator can always bind, even with every backend down.
 */
public final class RootUsers {
  private volatile List<RootDnConfig> users;

  /** Verifies with the schemes in force now: enabling or disabling one applies live. */
  private final PasswordPolicies policies;

  public RootUsers(List<RootDnConfig> users, PasswordPolicies policies) {
    this.users = List.copyOf(users);
    this.policies = policies;
  }

  /**
   * Takes a changed {@code cn=Root DNs} into use; binds after this see the new users and passwords.
   */
  public void replace(List<RootDnConfig> newUsers) {
    users = List.copyOf(newUsers);
  }

  /** True if {@code dn} names a root user (the bind is then decided here, never by a backend). */
  public boolean isRoot(DN dn) {
    return find(dn) != null;
  }

  /**
   * Whether {@link #authenticate} verifies a password of {@code dn} quickly: every stored hash of
   * the root user in a quick scheme (setup stores them with PBKDF2, which is slow on purpose).
   */
  public boolean verifiesQuickly(DN dn) {
    RootDnConfig user = find(dn);
    return user == null
        || user.passwordHashes().stream()
            .allMatch(
                hash ->
                    policies
                        .defaultSchemes()
                        .verifiesQuickly(hash.getBytes(StandardCharsets.UTF_8)));
  }

  /** The identity for a correct password, or null. */
  public Identity authenticate(DN dn, byte[] password) {
    RootDnConfig user = find(dn);
    if (user == null) {
      return null;
    }
    for (String hash : user.passwordHashes()) {
      if (policies.defaultSchemes().verify(password, hash.getBytes(StandardCharsets.UTF_8))) {
        return new Identity(
            user.bindDns().get(user.bindDns().size() > 1 ? 1 : 0),
            true,
            new HashSet<>(user.privileges()));
      }
    }
    return null;
  }

  private RootDnConfig find(DN dn) {
    for (RootDnConfig user : users) {
      if (user.bindDns().contains(dn)) {
        return user;
      }
    }
    return null;
  }
}
