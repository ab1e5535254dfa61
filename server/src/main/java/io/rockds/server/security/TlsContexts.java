package io.rockds.server.security;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The server's TLS context: TLS 1.2 and 1.3 only, from a PKCS#12 key store (the file-based key
 * manager provider). When the instance has none, a self-signed certificate for {@code localhost} /
 * {@code 127.0.0.1} is generated on first start (as OpenDJ's setup does), with a random PIN in the
 * PIN file readable by the owner only. A trust store (the file-based trust manager provider), when
 * the file exists, makes the server ask clients for a certificate from those issuers (optional),
 * which SASL EXTERNAL binds with.
 */
public final class TlsContexts {
  private static final String ALIAS = "server-cert";

  private TlsContexts() {}

  /**
   * @param trustStore null, or a file that may not exist, for no client certificates
   */
  public static SslContext forKeyStore(
      Path keyStore, Path pinFile, Path trustStore, Path trustStorePin)
      throws IOException, GeneralSecurityException {
    if (!Files.exists(keyStore)) {
      generateSelfSigned(keyStore, pinFile);
    }
    char[] pin = pin(pinFile);
    KeyStore store = load(keyStore, pin);
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(store, pin);
    SslContextBuilder builder = SslContextBuilder.forServer(kmf).protocols("TLSv1.3", "TLSv1.2");
    if (trustStore != null && Files.exists(trustStore)) {
      // Client certificates from these issuers are asked for (not required), for SASL EXTERNAL.
      builder
          .trustManager(trustManagers(trustStore, trustStorePin))
          .clientAuth(ClientAuth.OPTIONAL);
    }
    return builder.build();
  }

  /**
   * When the first certificate of the server's chain in {@code keyStore} to expire does (for
   * monitoring).
   */
  public static Instant certificateExpiry(Path keyStore, Path pinFile)
      throws IOException, GeneralSecurityException {
    KeyStore store = load(keyStore, pin(pinFile));
    Instant first = null;
    for (String alias : java.util.Collections.list(store.aliases())) {
      java.security.cert.Certificate[] chain = store.getCertificateChain(alias);
      for (java.security.cert.Certificate c :
          chain == null ? new java.security.cert.Certificate[0] : chain) {
        Instant notAfter = ((X509Certificate) c).getNotAfter().toInstant();
        first = first == null || notAfter.isBefore(first) ? notAfter : first;
      }
    }
    if (first == null) {
      throw new GeneralSecurityException(keyStore + " holds no certificate chain");
    }
    return first;
  }

  private static char[] pin(Path pinFile) throws IOException {
    return Files.readString(pinFile, StandardCharsets.UTF_8).trim().toCharArray();
  }

  private static KeyStore load(Path file, char[] pin) throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, pin);
    }
    return store;
  }

  private static TrustManagerFactory trustManagers(Path trustStore, Path pinFile)
      throws IOException, GeneralSecurityException {
    KeyStore store = load(trustStore, pin(pinFile));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(store);
    return tmf;
  }

  private static void generateSelfSigned(Path keyStore, Path pinFile)
      throws IOException, GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(256);
    KeyPair pair = generator.generateKeyPair();
    X500Name subject = new X500Name("CN=localhost,O=RockDS Self-Signed Certificate");
    Instant now = Instant.now();
    JcaX509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            subject,
            new BigInteger(64, new SecureRandom()),
            Date.from(now.minus(Duration.ofDays(1))),
            Date.from(now.plus(Duration.ofDays(3650))),
            subject,
            pair.getPublic());
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(
            new GeneralName[] {
              new GeneralName(GeneralName.dNSName, "localhost"),
              new GeneralName(GeneralName.iPAddress, "127.0.0.1")
            }));
    X509Certificate certificate;
    try {
      certificate =
          new JcaX509CertificateConverter()
              .getCertificate(
                  builder.build(
                      new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("cannot sign the self-signed certificate", e);
    }
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    String pin = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry(
        ALIAS, pair.getPrivate(), pin.toCharArray(), new X509Certificate[] {certificate});
    Files.createDirectories(keyStore.getParent());
    Files.writeString(pinFile, pin, StandardCharsets.UTF_8);
    try {
      Files.setPosixFilePermissions(pinFile, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException ignored) {
      // Not a POSIX file system.
    }
    try (OutputStream out = Files.newOutputStream(keyStore)) {
      store.store(out, pin.toCharArray());
    }
  }
}
