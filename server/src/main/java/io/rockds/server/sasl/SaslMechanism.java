package io.rockds.server.sasl;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.ClientConnection;
import io.rockds.server.security.policy.BindOutcome;
import java.util.List;

/** One SASL mechanism. The mechanisms here complete in a single round trip. */
public interface SaslMechanism {

  /** The registered name, e.g. {@code PLAIN}. */
  String name();

  /**
   * Authenticates the client through the server's {@link
   * io.rockds.server.security.policy.AuthenticationGate} (so the password policy applies); returns
   * its identity or throws with invalidCredentials (49), inappropriateAuthentication (48) or
   * authorizationDenied (123).
   *
   * @param credentials the bind's SASL credentials; null when the client sent none
   * @param requestControls the bind's controls (the password policy control asks for details)
   */
  BindOutcome authenticate(
      ClientConnection client, ASN1OctetString credentials, List<Control> requestControls)
      throws LDAPException;
}
