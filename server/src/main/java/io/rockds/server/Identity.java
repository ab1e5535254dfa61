package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import java.util.Set;

/**
 * Who a connection is bound as.
 *
 * @param dn the bind DN; {@link DN#NULL_DN} when anonymous
 * @param root a root DN user from {@code cn=Root DNs,cn=config}
 * @param privileges OpenDJ-style privilege names ({@code unindexed-search}, {@code bypass-acl},
 *     ...)
 * @param limits the user's own resource limits ({@code ds-rlim-*}), {@link UserLimits#NONE} for
 *     root and anonymous
 */
public record Identity(DN dn, boolean root, Set<String> privileges, UserLimits limits) {
  public static final Identity ANONYMOUS = new Identity(DN.NULL_DN, false, Set.of());

  public Identity {
    privileges = Set.copyOf(privileges);
  }

  /** An identity with the server's resource limits. */
  public Identity(DN dn, boolean root, Set<String> privileges) {
    this(dn, root, privileges, UserLimits.NONE);
  }

  public boolean isAnonymous() {
    return dn.isNullDN();
  }

  public boolean has(String privilege) {
    return privileges.contains(privilege);
  }

  /** The authzId WhoAmI reports: {@code dn:<dn>}, or empty for anonymous. */
  public String authzId() {
    return isAnonymous() ? "" : "dn:" + dn;
  }
}
