package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

/** An ACI value that does not parse: invalidAttributeSyntax (21) when a client writes it. */
public final class AciSyntaxException extends Exception {
  private static final long serialVersionUID = 1L;

  AciSyntaxException(String message) {
    super(message);
  }

  /** The LDAP result for a client that wrote {@code value}. */
  public LDAPException toLdapException(String value) {
    return new LDAPException(
        ResultCode.INVALID_ATTRIBUTE_SYNTAX,
        "The ACI value \"" + value + "\" is invalid: " + getMessage());
  }
}
