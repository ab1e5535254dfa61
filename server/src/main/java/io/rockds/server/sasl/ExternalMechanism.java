package io.rockds.server.sasl;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.ClientConnection;
import io.rockds.server.security.policy.AuthenticationGate;
import io.rockds.server.security.policy.BindOutcome;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * SASL EXTERNAL (RFC 4422 appendix A) over TLS: the client certificate's subject DN, verified by
 * the TLS handshake against the server's trust store, names the user entry directly; the {@link
 * AuthenticationGate} then refuses a disabled, expired or locked account. A connection without a
 * client certificate, or a subject with no entry, gets inappropriateAuthentication (48) or
 * invalidCredentials (49).
 */
final class ExternalMechanism implements SaslMechanism {
  private final AuthenticationGate gate;

  ExternalMechanism(AuthenticationGate gate) {
    this.gate = gate;
  }

  @Override
  public String name() {
    return "EXTERNAL";
  }

  @Override
  public BindOutcome authenticate(
      ClientConnection client, ASN1OctetString credentials, List<Control> requestControls)
      throws LDAPException {
    DN subject = subjectOf(client.ldap().sslSession());
    BindOutcome outcome = gate.verified(client, subject, requestControls);
    String authzId = credentials == null ? "" : credentials.stringValue();
    if (!authzId.isEmpty() && !authzId.equals(outcome.identity().authzId())) {
      throw new LDAPException(
          ResultCode.AUTHORIZATION_DENIED,
          "Authorizing as another user (" + authzId + ") is not supported");
    }
    return outcome;
  }

  private static DN subjectOf(SSLSession session) throws LDAPException {
    if (session == null) {
      throw new LDAPException(
          ResultCode.INAPPROPRIATE_AUTHENTICATION, "SASL EXTERNAL requires TLS");
    }
    Certificate[] chain;
    try {
      chain = session.getPeerCertificates();
    } catch (SSLPeerUnverifiedException e) {
      throw new LDAPException(
          ResultCode.INAPPROPRIATE_AUTHENTICATION, "SASL EXTERNAL requires a client certificate");
    }
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
      throw new LDAPException(
          ResultCode.INAPPROPRIATE_AUTHENTICATION, "The client certificate is not X.509");
    }
    try {
      return new DN(certificate.getSubjectX500Principal().getName());
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.INVALID_CREDENTIALS, "The client certificate subject is not a DN");
    }
  }
}
