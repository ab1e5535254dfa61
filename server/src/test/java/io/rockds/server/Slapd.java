package io.rockds.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.testsupport.RequiredTool;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenLDAP slapd (Debian's package) on a free loopback port, for the conformance tests:
 * back-mdb holding {@code dc=example,dc=com} with the core, cosine, inetOrgPerson, nis and dyngroup
 * schemas, the memberof and refint overlays, and {@code cn=Directory Manager} as root DN (slapd
 * wants a root password only under a suffix, so that DN is the suffix of a second, ldif, database).
 * Skipped when slapd is not installed (failed under CI_REQUIRE_TOOLS=1, see RequiredTool).
 */
final class Slapd implements AutoCloseable {
  static final Path SLAPD = Path.of("/usr/sbin/slapd");
  private static final int START_ATTEMPTS = 100;

  private final Process process;
  private final int port;
  private final Path log;

  private Slapd(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Starts slapd in {@code dir}; aborts the test (or fails it when CI is set) if not installed. */
  static Slapd start(Path dir, String rootPassword) throws Exception {
    RequiredTool.assumeInstalled(SLAPD, "slapd");
    Files.createDirectories(dir.resolve("db"));
    Files.createDirectories(dir.resolve("root"));
    Path config = dir.resolve("slapd.conf");
    Files.writeString(
        config,
        String.join(
            "\n",
            "include /etc/ldap/schema/core.schema",
            "include /etc/ldap/schema/cosine.schema",
            "include /etc/ldap/schema/inetorgperson.schema",
            "include /etc/ldap/schema/nis.schema",
            "include /etc/ldap/schema/dyngroup.schema",
            "modulepath /usr/lib/ldap",
            "moduleload back_mdb",
            "moduleload back_ldif",
            "moduleload memberof",
            "moduleload refint",
            "database ldif",
            "suffix \"" + TestServer.ROOT_DN + "\"",
            "rootdn \"" + TestServer.ROOT_DN + "\"",
            "rootpw " + rootPassword,
            "directory " + dir.resolve("root"),
            "database mdb",
            "suffix \"" + TestServer.BASE + "\"",
            "rootdn \"" + TestServer.ROOT_DN + "\"",
            "directory " + dir.resolve("db"),
            "maxsize 1073741824",
            "index objectClass,member,uniqueMember eq",
            "overlay memberof",
            "overlay refint",
            "refint_attributes member uniqueMember",
            ""),
        UTF_8);
    int port = freeLoopbackPort();
    Path log = dir.resolve("slapd.log");
    Process process =
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
    Slapd slapd = new Slapd(process, port, log);
    slapd.awaitListening();
    return slapd;
  }

  int port() {
    return port;
  }

  LDAPConnection rootConnection() throws LDAPException {
    return new LDAPConnection("127.0.0.1", port, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
  }

  LDAPConnection anonymousConnection() throws LDAPException {
    return new LDAPConnection("127.0.0.1", port);
  }

  private void awaitListening() throws Exception {
    for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      if (!process.isAlive()) {
        throw new AssertionError("slapd exited: " + Files.readString(log, UTF_8));
      }
      try {
        new LDAPConnection("127.0.0.1", port).close();
        return;
      } catch (LDAPException notYet) {
        Thread.sleep(100);
      }
    }
    throw new AssertionError("slapd not listening after 10 s: " + Files.readString(log, UTF_8));
  }

  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
