package io.rockds.tools;

import static io.rockds.testsupport.Processes.freePort;
import static io.rockds.tools.fixtures.BinScripts.run;
import static io.rockds.tools.fixtures.BinScripts.runWith;
import static io.rockds.tools.fixtures.BinScripts.setup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import io.netty.channel.epoll.Epoll;
import io.rockds.layout.Instance;
import io.rockds.server.DirectoryServer;
import io.rockds.testsupport.Processes.Result;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The README's quick start as a newcomer runs it: {@code bin/start-ds} as a process on an instance
 * that does not exist yet (so it is created with setup's defaults), the sample entries answered
 * with the documented password, a second start on the same data, then {@code bin/stop-ds}.
 */
class QuickStartIT {
  @TempDir Path dir;

  @Test
  void startDsCreatesTheInstanceListensAndReusesItsDataOnTheNextStart() throws Exception {
    Path instance = dir.resolve("instance");
    int port = 1389;
    if (!isFree(port)) {
      // A developer's own server holds the quick-start port: set up on a free one instead.
      port = freePort();
      assertThat(setup(instance, port, "password", "--sampleData", "10").exitCode()).isZero();
    }
    try {
      Result start = run("bin/start-ds", "--instance", instance.toString());
      assertThat(start.exitCode()).as(start.output()).isZero();
      assertThat(start.output()).contains("ldap://127.0.0.1:" + port);
      try (LDAPConnection c =
          new LDAPConnection("127.0.0.1", port, "cn=Directory Manager", "password")) {
        SearchResult users =
            c.search("dc=example,dc=com", SearchScope.SUB, "(objectClass=inetOrgPerson)", "uid");
        assertThat(users.getEntryCount()).isEqualTo(10);
        assertThat(c.getEntry("uid=user.1,ou=People,dc=example,dc=com")).isNotNull();
        c.add("dn: ou=Kept,dc=example,dc=com", "objectClass: organizationalUnit", "ou: Kept");
      }
      assertPrivate(instance);
      assertThat(run("bin/stop-ds", "--instance", instance.toString()).exitCode()).isZero();

      Result again = run("bin/start-ds", "--instance", instance.toString());
      assertThat(again.exitCode()).as(again.output()).isZero();
      assertThat(again.output()).doesNotContain("creating it");
      try (LDAPConnection c =
          new LDAPConnection("127.0.0.1", port, "cn=Directory Manager", "password")) {
        assertThat(c.getEntry("ou=Kept,dc=example,dc=com")).isNotNull();
      }
      Result twice = run("bin/start-ds", "--instance", instance.toString());
      assertThat(twice.exitCode()).isNotZero();
      assertThat(twice.output()).contains("already running");
    } finally {
      run("bin/stop-ds", "--instance", instance.toString());
    }
    assertThat(Files.exists(instance.resolve("logs/server.pid"))).isFalse();
  }

  /**
   * What the server and the scripts wrote is the owner's alone, and the root password is stored
   * with an iterated scheme.
   */
  private static void assertPrivate(Path instance) throws IOException {
    assertThat(Files.getPosixFilePermissions(instance))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    for (Path file :
        List.of(
            instance.resolve("config/config.ldif"),
            instance.resolve("logs/access"),
            instance.resolve("logs/server.out"))) {
      assertThat(Files.getPosixFilePermissions(file))
          .as(file.toString())
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }
    try (var db = Files.walk(instance.resolve("db"))) {
      db.filter(Files::isRegularFile)
          .forEach(
              file -> {
                try {
                  assertThat(Files.getPosixFilePermissions(file))
                      .as(file.toString())
                      .doesNotContain(
                          PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
    }
    assertThat(Files.readString(instance.resolve("config/config.ldif")))
        .contains("userPassword: {PBKDF2-SHA256}")
        .doesNotContain("{SSHA512}");
  }

  @Test
  void setupWithoutOptionsCreatesNoKnownCredentials() throws Exception {
    Path instance = dir.resolve("bare");
    Result refused =
        run("bin/setup", "--instance", instance.toString(), "--ldapsPort", "0", "--quiet");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.output()).contains("no root user password");
    assertThat(Files.exists(instance.resolve("config/config.ldif"))).isFalse();

    assertThat(setup(instance, 0, "Root-Secret-1", "--quiet").exitCode()).isZero();
    try (DirectoryServer server = DirectoryServer.start(new Instance(instance));
        LDAPConnection c =
            new LDAPConnection(
                "127.0.0.1", server.ldapPort(), "cn=Directory Manager", "Root-Secret-1")) {
      SearchResult all = c.search("dc=example,dc=com", SearchScope.SUB, "(objectClass=*)", "1.1");
      assertThat(all.getSearchEntries())
          .extracting(e -> e.getDN())
          .containsExactly("dc=example,dc=com");
    }
  }

  /**
   * On either transport ({@code -Drockds.transport}): the server exits at once with the line, which
   * names the transport, rather than staying up (start-ds would wait for it until its timeout).
   */
  @ParameterizedTest
  @ValueSource(strings = {"nio", "epoll"})
  void aTakenPortGivesOneClearLineNotAStackTrace(String transport) throws Exception {
    assumeTrue(!transport.equals("epoll") || Epoll.isAvailable(), "no native epoll here");
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Path instance = dir.resolve("busy-" + transport);
      assertThat(setup(instance, taken.getLocalPort(), "Root-Secret-1", "--quiet").exitCode())
          .isZero();
      Result start =
          runWith(
              Map.of("ROCKDS_JAVA_OPTS", "-Xmx256m -Drockds.transport=" + transport),
              "bin/start-ds",
              "--instance",
              instance.toString(),
              "--timeout",
              "30");
      assertThat(start.exitCode()).isNotZero();
      assertThat(start.output())
          .contains("cannot listen on 127.0.0.1:" + taken.getLocalPort() + " (" + transport + ")")
          .doesNotContain("\tat ");
    }
  }

  /**
   * Issue 18, item 8: stop-ds used to report success whatever ended the process. A process that
   * dies of the SIGTERM without the server's shutdown (as a JVM crashing inside RocksDB does)
   * writes no logs/server.stopped, and stop-ds says so with exit status 1.
   */
  @Test
  void stopDsReportsAServerThatEndedWithoutACleanShutdown() throws Exception {
    Path instance = dir.resolve("crashing");
    Files.createDirectories(instance.resolve("logs"));
    // Named as the server's main class (stop-ds signals only such a process), it dies of the
    // SIGTERM.
    Process notAServer =
        new ProcessBuilder("bash", "-c", "exec -a io.rockds.server.Main sleep 600").start();
    try {
      Files.writeString(instance.resolve("logs/server.pid"), Long.toString(notAServer.pid()));
      Result stop = run("bin/stop-ds", "--instance", instance.toString());
      assertThat(stop.exitCode()).as(stop.output()).isEqualTo(1);
      assertThat(stop.output()).contains("did not shut down cleanly").contains("crashed or killed");
    } finally {
      notAServer.destroyForcibly();
    }
  }

  /**
   * Whether a server runs is decided by its lock (locks/server.lock), not by the pid file: after
   * kill -9 the stale pid file (or one naming another live process, as pid 1 in a restarted
   * container) does not stop start-ds, which returns once the pid file and the listeners exist.
   */
  @Test
  void startDsStartsAfterKillMinus9AndDespiteAPidFileNamingAnotherProcess() throws Exception {
    Path instance = dir.resolve("killed");
    int port = freePort();
    assertThat(setup(instance, port, "Root-Secret-1", "--quiet").exitCode()).isZero();
    try {
      Result start = run("bin/start-ds", "--instance", instance.toString());
      assertThat(start.exitCode()).as(start.output()).isZero();
      long pid = Long.parseLong(Files.readString(instance.resolve("logs/server.pid")).strip());
      assertThat(Files.exists(instance.resolve("logs/server.started"))).isTrue();
      assertThat(canConnect(port)).isTrue();

      ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
      server.destroyForcibly();
      server.onExit().get(60, TimeUnit.SECONDS);
      assertThat(Files.exists(instance.resolve("logs/server.pid")))
          .as("kill -9 leaves the pid file")
          .isTrue();
      Result afterKill = run("bin/start-ds", "--instance", instance.toString());
      assertThat(afterKill.exitCode()).as(afterKill.output()).isZero();
      assertThat(canConnect(port)).isTrue();
      long second = Long.parseLong(Files.readString(instance.resolve("logs/server.pid")).strip());
      assertThat(second).isNotEqualTo(pid);

      ProcessHandle.of(second).orElseThrow().destroyForcibly();
      ProcessHandle.of(second).ifPresent(p -> p.onExit().join());
      // A live process that is not the server: this test's own JVM (as pid 1 would be in a
      // container).
      Files.writeString(
          instance.resolve("logs/server.pid"), Long.toString(ProcessHandle.current().pid()));
      Result despiteLivePid = run("bin/start-ds", "--instance", instance.toString());
      assertThat(despiteLivePid.exitCode()).as(despiteLivePid.output()).isZero();
      assertThat(canConnect(port)).isTrue();
    } finally {
      run("bin/stop-ds", "--instance", instance.toString());
    }
  }

  private static boolean canConnect(int port) {
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", port)) {
      return c.getRootDSE() != null;
    } catch (com.unboundid.ldap.sdk.LDAPException e) {
      return false;
    }
  }

  private static boolean isFree(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
