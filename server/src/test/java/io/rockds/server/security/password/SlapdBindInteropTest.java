package io.rockds.server.security.password;

import static io.rockds.server.security.password.OpenLdapTools.MODULE_PATH;
import static io.rockds.server.security.password.OpenLdapTools.SLAPADD;
import static io.rockds.server.security.password.OpenLdapTools.SLAPD;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.testsupport.RequiredTool;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The other direction: OpenLDAP's slapd authenticates simple binds against the hashes we write, so
 * a directory can move back. Loads our hashes with {@code slapadd} into a throw-away slapd on a
 * loopback port. Skipped only when slapd is not installed.
 */
class SlapdBindInteropTest {

  private static final String SUFFIX = "dc=example,dc=com";
  private static final String PASSWORD = "p\u00e4ssw\u00f6rd \u2713 secret";
  private static final int START_ATTEMPTS = 100;

  /** Every scheme we can write under a name OpenLDAP knows (not BCRYPT, not OpenDJ's PBKDF2s). */
  private static final List<String> SCHEMES =
      List.of(
          "SSHA",
          "SSHA256",
          "SSHA384",
          "SSHA512",
          "SMD5",
          "SHA",
          "SHA256",
          "SHA384",
          "SHA512",
          "MD5",
          "PBKDF2",
          "PBKDF2-SHA1",
          "PBKDF2-SHA256",
          "PBKDF2-SHA512",
          "ARGON2",
          "CRYPT");

  @TempDir static Path directory;

  private static Process slapd;
  private static int port;

  @BeforeAll
  static void startSlapdWithOurHashes() throws Exception {
    RequiredTool.assumeInstalled(SLAPD, "slapd");
    RequiredTool.assumeFile(MODULE_PATH.resolve("pw-pbkdf2.so"), "slapd-contrib");
    Path config = directory.resolve("slapd.conf");
    Files.createDirectory(directory.resolve("db"));
    Files.writeString(
        config,
        String.join(
            "\n",
            "include /etc/ldap/schema/core.schema",
            "include /etc/ldap/schema/cosine.schema",
            "modulepath " + MODULE_PATH,
            "moduleload back_mdb",
            "moduleload pw-sha2",
            "moduleload pw-pbkdf2",
            "moduleload argon2",
            "database mdb",
            "suffix \"" + SUFFIX + "\"",
            "directory " + directory.resolve("db"),
            ""));
    Path ldif = directory.resolve("entries.ldif");
    Files.write(ldif, entries().getBytes(ISO_8859_1));
    OpenLdapTools.run(List.of(SLAPADD.toString(), "-f", config.toString(), "-l", ldif.toString()));

    port = freeLoopbackPort();
    Path log = directory.resolve("slapd.log");
    slapd =
        new ProcessBuilder(
                SLAPD.toString(),
                "-f",
                config.toString(),
                "-h",
                "ldap://127.0.0.1:" + port + "/",
                "-d",
                "0")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    awaitListening(log);
  }

  @AfterAll
  static void stopSlapd() throws InterruptedException {
    if (slapd != null) {
      slapd.destroy();
      slapd.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @ParameterizedTest
  @MethodSource("schemes")
  void slapdBind_acceptsOurHashAndRejectsAWrongPassword(String scheme) throws LDAPException {
    try (LDAPConnection connection = new LDAPConnection("127.0.0.1", port)) {
      assertThat(connection.bind(dn(scheme), PASSWORD).getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
      assertThatThrownBy(() -> connection.bind(dn(scheme), "wrong " + PASSWORD))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS));
    }
  }

  static List<String> schemes() {
    return SCHEMES;
  }

  private static String entries() {
    StringBuilder ldif =
        new StringBuilder(
            "dn: "
                + SUFFIX
                + "\nobjectClass: dcObject\nobjectClass: organization\n"
                + "dc: example\no: example\n\n");
    for (String scheme : SCHEMES) {
      PasswordSchemes schemes =
          new PasswordSchemes(
              new PasswordSchemeSettings(
                  scheme, Set.of(), 10_000, 10, PasswordSchemeSettings.Argon2Cost.OWASP));
      String hash = new String(schemes.encode(PASSWORD.getBytes(UTF_8)), ISO_8859_1);
      ldif.append("dn: ")
          .append(dn(scheme))
          .append("\nobjectClass: account\nobjectClass: simpleSecurityObject\nuid: ")
          .append(uid(scheme))
          .append("\nuserPassword: ")
          .append(hash)
          .append("\n\n");
    }
    return ldif.toString();
  }

  private static String dn(String scheme) {
    return "uid=" + uid(scheme) + "," + SUFFIX;
  }

  private static String uid(String scheme) {
    return scheme.toLowerCase(Locale.ROOT);
  }

  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void awaitListening(Path log) throws Exception {
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      assertThat(slapd.isAlive()).as("slapd exited: %s", Files.readString(log, UTF_8)).isTrue();
      try {
        new LDAPConnection("127.0.0.1", port).close();
        return;
      } catch (LDAPException notYet) {
        Thread.sleep(100);
      }
    }
    throw new AssertionError("slapd not listening after 10 s: " + Files.readString(log, UTF_8));
  }
}
