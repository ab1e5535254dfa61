package io.rockds.server.security.policy;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import java.util.Set;

/**
 * Connections bound with a password an administrator reset, under a policy with {@code
 * force-change-on-reset}: until the user changes it, every request but a password change fails with
 * insufficientAccessRights (50), as OpenLDAP's ppolicy does. The restriction belongs to one bind: a
 * new bind or a closed connection ends it.
 */
public final class ResetRestrictions {
  private static final Set<String> ALLOWED_EXTENDED_OPERATIONS =
      Set.of(PasswordModifyOperation.OID, "1.3.6.1.4.1.1466.20037", "1.3.6.1.4.1.4203.1.11.3");

  /**
   * Restricts {@code client}'s bind as {@code identity}. Kept on the connection: a map of all
   * connections, consulted by every request of every connection, serialised them on its lock.
   */
  void restrict(ClientConnection client, Identity identity) {
    client.restrictToPasswordChange(identity);
  }

  void lift(ClientConnection client) {
    client.restrictToPasswordChange(null);
  }

  /** Compared by reference: the restriction belongs to one bind. */
  private static boolean isRestricted(ClientConnection client) {
    Identity identity = client.restrictedToPasswordChange();
    return identity != null && identity == client.identity();
  }

  /** Refuses {@code request} if the client must first change its password. */
  public void check(ClientConnection client, LDAPMessage request) throws LDAPException {
    if (!isRestricted(client) || allowed(client.identity().dn(), request)) {
      return;
    }
    throw new LDAPException(
        ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
        "Your password was reset: change it before any other operation");
  }

  private static boolean allowed(DN self, LDAPMessage request) {
    return switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST -> true;
      case LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_REQUEST ->
          ALLOWED_EXTENDED_OPERATIONS.contains(request.getExtendedRequestProtocolOp().getOID());
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST -> isOwnPasswordChange(self, request);
      default -> false;
    };
  }

  private static boolean isOwnPasswordChange(DN self, LDAPMessage request) {
    try {
      if (!new DN(request.getModifyRequestProtocolOp().getDN()).equals(self)) {
        return false;
      }
    } catch (LDAPException e) {
      return false;
    }
    for (Modification m : request.getModifyRequestProtocolOp().getModifications()) {
      if (!m.getAttribute().getBaseName().equalsIgnoreCase(PasswordState.PASSWORD)) {
        return false;
      }
    }
    return true;
  }
}
