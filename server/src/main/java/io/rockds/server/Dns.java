package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

/** DN parsing that turns a malformed DN into invalidDNSyntax (34) naming the value. */
final class Dns {
  private Dns() {}

  static DN parse(String dn) throws LDAPException {
    try {
      return new DN(dn);
    } catch (LDAPException e) {
      throw new LDAPException(ResultCode.INVALID_DN_SYNTAX, "invalid DN \"" + dn + "\": " + e.getExceptionMessage());
    }
  }
}
