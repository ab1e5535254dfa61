package io.rockds.server.security;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.Identity;
import java.util.List;

/**
 * The default access rules, secure by default: anonymous clients never write; root users and
 * holders of {@code bypass-acl} may write anything; an authenticated user may change only their
 * own password. The ACI model of the security issue refines these rules.
 */
public final class AccessControl {
  private AccessControl() {}

  /** Add, delete and modify DN. */
  public static void checkWrite(Identity identity, DN target, String operation) throws LDAPException {
    if (identity.root() || identity.has("bypass-acl")) {
      return;
    }
    throw denied(identity, operation, target);
  }

  /** Modify: a user may replace, add or delete values of their own userPassword. */
  public static void checkModify(Identity identity, DN target, List<Modification> modifications) throws LDAPException {
    if (identity.root() || identity.has("bypass-acl")) {
      return;
    }
    boolean self = !identity.isAnonymous() && identity.dn().equals(target);
    boolean passwordOnly = modifications.stream().allMatch(m -> m.getAttribute().getBaseName().equalsIgnoreCase("userPassword"));
    if (!self || !passwordOnly) {
      throw denied(identity, "modify", target);
    }
  }

  private static LDAPException denied(Identity identity, String operation, DN target) {
    String who = identity.isAnonymous() ? "Anonymous clients" : identity.dn().toString();
    return new LDAPException(ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
        who + " may not perform " + operation + " on " + target + ": insufficient access rights");
  }
}
