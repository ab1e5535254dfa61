package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

/**
 * DN parsing that turns a malformed (or not UTF-8) DN into invalidDNSyntax (34) naming the value.
 */
final class Dns {
  private Dns() {}

  static DN parse(String dn) throws LDAPException {
    // The decoder turns bytes that are not UTF-8 into U+FFFD; such a DN must not be stored or
    // matched.
    if (dn.indexOf('\uFFFD') >= 0) {
      throw new LDAPException(
          ResultCode.INVALID_DN_SYNTAX, "invalid DN \"" + dn + "\": not valid UTF-8");
    }
    try {
      return new DN(dn);
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.INVALID_DN_SYNTAX, "invalid DN \"" + dn + "\": " + e.getExceptionMessage());
    }
  }

  /** The DN a checked modify DN request gives its entry (its new RDN under its new parent). */
  static DN renamed(DN dn, com.unboundid.ldap.protocol.ModifyDNRequestProtocolOp op)
      throws LDAPException {
    DN parent = op.getNewSuperiorDN() == null ? dn.getParent() : parse(op.getNewSuperiorDN());
    return new DN(new com.unboundid.ldap.sdk.RDN(op.getNewRDN()), parent);
  }
}
