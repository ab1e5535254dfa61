package io.rockds.server.security;

import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import io.rockds.server.security.aci.Subject;
import java.net.InetSocketAddress;
import java.security.cert.Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/** The bind-rule view of a client connection. */
final class Subjects {
  private Subjects() {}

  static Subject of(ClientConnection client) {
    Identity identity = client.identity();
    InetSocketAddress remote = client.ldap().remoteAddress();
    return new Subject(identity.dn(), authMethod(client, identity), remote == null ? null : remote.getAddress());
  }

  /**
   * {@code none} for anonymous clients; {@code ssl} when the client presented a certificate on a
   * TLS connection (how SASL EXTERNAL authenticates); {@code simple} otherwise. The identity does
   * not record the bind mechanism, so a SASL PLAIN bind also counts as {@code simple}.
   */
  private static String authMethod(ClientConnection client, Identity identity) {
    if (identity.isAnonymous()) {
      return "none";
    }
    SSLSession session = client.ldap().isSecure() ? client.ldap().sslSession() : null;
    if (session != null) {
      try {
        Certificate[] certificates = session.getPeerCertificates();
        if (certificates.length > 0) {
          return "ssl";
        }
      } catch (SSLPeerUnverifiedException e) {
        // no client certificate
      }
    }
    return "simple";
  }
}
