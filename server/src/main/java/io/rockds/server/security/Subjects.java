package io.rockds.server.security;

import io.rockds.server.ClientConnection;
import io.rockds.server.security.aci.Subject;
import java.net.InetSocketAddress;
import java.util.Locale;
import javax.net.ssl.SSLSession;

/** The bind-rule view of a client connection. */
final class Subjects {
  private Subjects() {}

  static Subject of(ClientConnection client) {
    InetSocketAddress remote = client.ldap().remoteAddress();
    SSLSession session = client.ldap().isSecure() ? client.ldap().sslSession() : null;
    return new Subject(
        client.identity().dn(),
        client.authMethod(),
        remote == null ? null : remote.getAddress(),
        session == null ? 0 : cipherStrength(session.getCipherSuite()));
  }

  /**
   * The security strength factor of a TLS cipher suite: the key size in bits of its bulk cipher,
   * read from the suite's name as OpenDJ does (TLS 1.3 {@code TLS_AES_256_GCM_SHA384} and TLS 1.2
   * {@code TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256} alike); 0 for a suite without encryption.
   */
  static int cipherStrength(String cipherSuite) {
    String suite = cipherSuite.toUpperCase(Locale.ROOT) + "_";
    if (suite.contains("_AES_256_")
        || suite.contains("_CHACHA20_")
        || suite.contains("_CAMELLIA_256_")
        || suite.contains("_ARIA_256_")) {
      return 256;
    }
    if (suite.contains("_AES_128_")
        || suite.contains("_CAMELLIA_128_")
        || suite.contains("_ARIA_128_")
        || suite.contains("_RC4_128_")) {
      return 128;
    }
    if (suite.contains("_3DES_EDE_")) {
      return 112;
    }
    if (suite.contains("_DES_CBC_")) {
      return 56;
    }
    return 0;
  }
}
