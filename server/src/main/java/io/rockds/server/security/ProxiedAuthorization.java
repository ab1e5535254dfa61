package io.rockds.server.security;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.ProxiedAuthorizationV2RequestControl;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import io.rockds.server.security.privilege.Privilege;
import java.util.List;

/**
 * The proxied authorization v2 control (RFC 4370): an operation runs as another identity when the
 * requester holds the {@code proxied-auth} privilege and the {@code proxy} right on the target
 * entry. Any failure is authorizationDenied (123), as the RFC requires.
 */
final class ProxiedAuthorization {
  static final String OID =
      ProxiedAuthorizationV2RequestControl.PROXIED_AUTHORIZATION_V2_REQUEST_OID;

  private final AccessControl access;
  private final EntryLookup entries;

  ProxiedAuthorization(AccessControl access, EntryLookup entries) {
    this.access = access;
    this.entries = entries;
  }

  ClientConnection actor(ClientConnection client, LDAPMessage request) throws LDAPException {
    Control control = find(request.getControls());
    if (control == null
        || request.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST) {
      return client;
    }
    String authzId;
    try {
      authzId = new ProxiedAuthorizationV2RequestControl(control).getAuthorizationID();
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.PROTOCOL_ERROR,
          "invalid proxied authorization control: " + e.getExceptionMessage());
    }
    if (!Privilege.PROXIED_AUTH.heldBy(client.identity())) {
      throw denied("you do not have the proxied-auth privilege");
    }
    if (authzId.isEmpty()) {
      return client.actingAs(Identity.ANONYMOUS);
    }
    Entry target = resolve(authzId);
    if (!access.mayProxyAs(client, target)) {
      throw denied("you may not proxy as " + target.getDN());
    }
    return client.actingAs(entries.identityOf(target));
  }

  private Entry resolve(String authzId) throws LDAPException {
    if (authzId.regionMatches(true, 0, "dn:", 0, 3)) {
      DN dn;
      try {
        dn = new DN(authzId.substring(3));
      } catch (LDAPException e) {
        throw denied("invalid authorization ID \"" + authzId + "\"");
      }
      Entry entry = entries.get(dn);
      if (entry == null) {
        throw denied("the authorization entry " + dn + " does not exist");
      }
      return entry;
    }
    if (authzId.regionMatches(true, 0, "u:", 0, 2)) {
      List<Entry> found = entries.findAll(Filter.createEqualityFilter("uid", authzId.substring(2)));
      if (found.size() != 1) {
        throw denied("the authorization ID \"" + authzId + "\" does not name exactly one entry");
      }
      return found.get(0);
    }
    throw denied("invalid authorization ID \"" + authzId + "\" (expected: dn:<dn> or u:<uid>)");
  }

  private static Control find(List<Control> controls) {
    for (Control c : controls) {
      if (c.getOID().equals(OID)) {
        return c;
      }
    }
    return null;
  }

  private static LDAPException denied(String why) {
    return new LDAPException(
        ResultCode.AUTHORIZATION_DENIED, "Proxied authorization denied: " + why);
  }
}
