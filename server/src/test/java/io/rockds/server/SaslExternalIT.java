package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.EXTERNALBindRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SASL EXTERNAL: a client certificate whose subject is a user entry's DN binds as that user. */
class SaslExternalIT {
  private static final String ALICE = "uid=alice,ou=People," + TestServer.BASE;
  @TempDir Path dir;

  @Test
  void aTrustedClientCertificateBindsAsTheEntryOfItsSubject() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries())) {
      try (LDAPConnection root = server.rootConnection()) {
        root.add("dn: " + ALICE, "objectClass: inetOrgPerson", "uid: alice", "cn: Alice", "sn: A");
      }
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(256);
      KeyPair pair = generator.generateKeyPair();
      // Through X500Principal, so the RDN sequence is in the order RFC 4514 strings are written.
      X500Name subject =
          X500Name.getInstance(new javax.security.auth.x500.X500Principal(ALICE).getEncoded());
      Instant now = Instant.now();
      X509Certificate certificate =
          new JcaX509CertificateConverter()
              .getCertificate(
                  new JcaX509v3CertificateBuilder(
                          subject,
                          BigInteger.ONE,
                          Date.from(now.minus(Duration.ofDays(1))),
                          Date.from(now.plus(Duration.ofDays(1))),
                          subject,
                          pair.getPublic())
                      .build(
                          new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));

      // The server trusts the client certificate (self-signed, so it is its own issuer).
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("alice", certificate);
      Path trustStore = server.instance().root().resolve("config/truststore.p12");
      try (OutputStream out = Files.newOutputStream(trustStore)) {
        trust.store(out, "trust-pin".toCharArray());
      }
      Files.writeString(trustStore.resolveSibling("truststore.p12.pin"), "trust-pin");
      server.restart();

      KeyStore client = KeyStore.getInstance("PKCS12");
      client.load(null, null);
      client.setKeyEntry(
          "alice", pair.getPrivate(), "k".toCharArray(), new X509Certificate[] {certificate});
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(client, "k".toCharArray());
      SSLContext tls = SSLContext.getInstance("TLSv1.3");
      tls.init(
          keys.getKeyManagers(),
          new javax.net.ssl.TrustManager[] {new com.unboundid.util.ssl.TrustAllTrustManager()},
          null);
      try (LDAPConnection connection =
          new LDAPConnection(tls.getSocketFactory(), "127.0.0.1", server.ldapsPort())) {
        assertThat(connection.bind(new EXTERNALBindRequest()).getResultCode())
            .isEqualTo(ResultCode.SUCCESS);
        WhoAmIExtendedResult whoAmI =
            (WhoAmIExtendedResult) connection.processExtendedOperation(new WhoAmIExtendedRequest());
        assertThat(whoAmI.getAuthorizationID()).isEqualToIgnoringCase("dn:" + ALICE);
      }
      // Clients without a certificate still connect (the certificate is asked for, not required).
      try (LDAPConnection plain = server.rootConnection()) {
        assertThat(plain.getEntry(ALICE)).isNotNull();
        // The certificate proves who the client is, but the account policy still applies.
        plain.modify(
            ALICE, new Modification(ModificationType.REPLACE, "ds-pwp-account-disabled", "TRUE"));
      }
      try (LDAPConnection connection =
          new LDAPConnection(tls.getSocketFactory(), "127.0.0.1", server.ldapsPort())) {
        assertThatThrownBy(() -> connection.bind(new EXTERNALBindRequest()))
            .isInstanceOfSatisfying(
                LDAPException.class,
                e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS));
      }
    }
  }
}
