package io.rockds.server.sasl;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;

/** One SASL mechanism. The mechanisms here complete in a single round trip. */
public interface SaslMechanism {

  /** The registered name, e.g. {@code PLAIN}. */
  String name();

  /**
   * Authenticates the client; returns its identity or throws with invalidCredentials (49),
   * inappropriateAuthentication (48) or authorizationDenied (123).
   *
   * @param credentials the bind's SASL credentials; null when the client sent none
   */
  Identity authenticate(ClientConnection client, ASN1OctetString credentials) throws LDAPException;
}
