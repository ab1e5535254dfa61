package io.rockds.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.LDAPConnection;
import io.rockds.testsupport.RequiredTool;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container's entry point, run directly against the built distribution (no Docker engine runs
 * here): first start creates and seeds the instance, a second start on the same volume only starts
 * it, and a bad certificate stops it with one line. Also checks the scripts with shellcheck.
 * (DistributionIT checks that the Dockerfile's COPY sources are in the distribution; DockerImageIT
 * runs the image in a real engine.)
 */
class DockerEntrypointIT {
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  @TempDir Path dir;

  @Test
  void firstStartSeedsSecondStartDoesNot() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Path ldifs = Files.createDirectories(dir.resolve("ldifs"));
    Files.writeString(
        ldifs.resolve("10-base.ldif"),
        """
        dn: dc=example,dc=org
        objectClass: top
        objectClass: domain
        dc: example
        """);
    Files.writeString(
        ldifs.resolve("15-people.ldif"),
        """
        dn: uid=alice,dc=example,dc=org
        objectClass: inetOrgPerson
        uid: alice
        cn: Alice
        sn: Liddell
        userPassword: wonderland
        """);
    int port = freePort();
    Map<String, String> env = environment(data, ldifs, port);
    Process first = start(env);
    try {
      awaitPort(first, port);
      assertThat(Files.exists(data.resolve(".rockds-bootstrapped"))).isTrue();
      assertThat(healthCheck(data, port)).as("healthy once seeded").isZero();
      try (LDAPConnection admin =
          new LDAPConnection("127.0.0.1", port, "cn=admin,dc=example,dc=org", "s3cret")) {
        assertThat(admin.getEntry("dc=example,dc=org"))
            .as("the first of several LDIF files")
            .isNotNull();
        assertThat(admin.getEntry("uid=alice,dc=example,dc=org")).isNotNull();
      }
      try (LDAPConnection alice =
          new LDAPConnection("127.0.0.1", port, "uid=alice,dc=example,dc=org", "wonderland")) {
        assertThat(alice.isConnected()).isTrue();
      }
    } finally {
      stop(first);
    }
    Files.writeString(
        ldifs.resolve("20-late.ldif"),
        """
        dn: uid=bob,dc=example,dc=org
        objectClass: inetOrgPerson
        uid: bob
        cn: Bob
        sn: Late
        """);
    Process second = start(env);
    try {
      awaitPort(second, port);
      try (LDAPConnection admin =
          new LDAPConnection("127.0.0.1", port, "cn=admin,dc=example,dc=org", "s3cret")) {
        assertThat(admin.getEntry("uid=alice,dc=example,dc=org")).isNotNull();
        assertThat(admin.getEntry("uid=bob,dc=example,dc=org"))
            .as("LDIF is imported on first start only")
            .isNull();
      }
    } finally {
      stop(second);
    }
  }

  @Test
  void aFailedSeedStopsAndARestartRefusesThePartialInstanceWhichNeverReportsHealthy()
      throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Path ldifs = Files.createDirectories(dir.resolve("ldifs"));
    Files.writeString(
        ldifs.resolve("bad.ldif"),
        """
        dn: dc=example,dc=org
        objectClass: top
        objectClass: domain
        dc: example

        dn: uid=orphan,ou=Missing,dc=example,dc=org
        objectClass: inetOrgPerson
        uid: orphan
        cn: Orphan
        sn: Orphan
        """);
    int port = freePort();
    Map<String, String> env = environment(data, ldifs, port);
    Exit first = runToExit(env);
    assertThat(first.code()).isNotZero();
    assertThat(first.output()).contains("rockds: error: bad LDIF in").contains("rejects.ldif");
    Exit restart = runToExit(env);
    assertThat(restart.code()).isNotZero();
    assertThat(restart.output())
        .contains("failed while seeding")
        .contains("empty it and start again");
    assertThat(healthCheck(data, port)).isNotZero();
  }

  @Test
  void anLdapVariableThisImageWouldIgnoreStopsItNamingTheVariable() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Map<String, String> env = environment(data, dir.resolve("no-ldifs"), freePort());
    env.put("LDAP_LOGLEVEL", "256");
    Exit exit = runToExit(env);
    assertThat(exit.code()).isNotZero();
    assertThat(exit.output())
        .contains(
            "rockds: error: LDAP_LOGLEVEL is not supported by this image and would be ignored");
    try (var files = Files.list(data)) {
      assertThat(files.toList()).as("nothing created").isEmpty();
    }
  }

  @Test
  void aReplicatedServerRefusesSeedsItWouldImportAloneBeforeCreatingAnything() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Path ldifs = Files.createDirectories(dir.resolve("ldifs"));
    Files.writeString(
        ldifs.resolve("base.ldif"), "dn: dc=example,dc=org\nobjectClass: domain\ndc: example\n");
    Map<String, String> env = environment(data, ldifs, freePort());
    env.put("ROCKDS_REPLICATION_PORT", Integer.toString(freePort()));
    env.put("ROCKDS_BOOTSTRAP_REPLICATION_SERVERS", "ds1:8989,ds2:8989,ds3:8989");
    Exit exit = runToExit(env);
    assertThat(exit.code()).isNotZero();
    assertThat(exit.output())
        .contains(
            "rockds: error: a replicated server is created empty: " + ldifs.resolve("base.ldif"))
        .contains("docs/replication.md");
    try (var files = Files.list(data)) {
      assertThat(files.toList()).as("nothing created").isEmpty();
    }
  }

  @Test
  void bitnamiUsersPasswordsAndGroupFromASecretFile() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Path passwords = dir.resolve("passwords");
    Files.writeString(passwords, "bitnami1,bitnami2");
    int port = freePort();
    Map<String, String> env = environment(data, dir.resolve("no-ldifs"), port);
    env.put("LDAP_USERS", "user01,user02");
    env.put("LDAP_PASSWORDS_FILE", passwords.toString());
    env.put("LDAP_USER_DC", "people");
    env.put("LDAP_GROUP", "staff");
    Process p = start(env);
    try {
      awaitPort(p, port);
      try (LDAPConnection user =
          new LDAPConnection(
              "127.0.0.1", port, "cn=user02,ou=people,dc=example,dc=org", "bitnami2")) {
        assertThat(user.isConnected()).isTrue();
      }
      try (LDAPConnection admin =
          new LDAPConnection("127.0.0.1", port, "cn=admin,dc=example,dc=org", "s3cret")) {
        assertThat(
                admin.getEntry("cn=staff,ou=people,dc=example,dc=org").getAttributeValues("member"))
            .containsExactly(
                "cn=user01,ou=people,dc=example,dc=org", "cn=user02,ou=people,dc=example,dc=org");
      }
    } finally {
      stop(p);
    }
  }

  @Test
  void anUnreadableCertificateStopsTheContainerWithOneLine() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Map<String, String> env = environment(data, dir.resolve("no-ldifs"), freePort());
    env.put("LDAP_ENABLE_TLS", "yes");
    env.put("LDAP_TLS_CERT_FILE", dir.resolve("missing.pem").toString());
    env.put("LDAP_TLS_KEY_FILE", dir.resolve("missing.key").toString());
    Process p = start(env);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).isNotZero();
    assertThat(out)
        .contains("rockds: error: cannot read LDAP_TLS_CERT_FILE=" + dir.resolve("missing.pem"))
        .doesNotContain("\tat ");
  }

  @Test
  void scriptsPassShellcheck() throws Exception {
    RequiredTool.assumeOnPath("shellcheck", "shellcheck");
    List<String> command =
        new ArrayList<>(
            List.of(
                "shellcheck",
                "-x",
                "docker/entrypoint.sh",
                "docker/healthcheck.sh",
                "docker/bitnami-tree.sh",
                "docker/build-base-image.sh",
                "docker/build-image.sh",
                ".ci/run",
                "benchmarks/run.sh",
                "benchmarks/cluster.sh",
                "benchmarks/slapd/slapd-reference.sh"));
    try (var bins = Files.list(REPO.resolve("bin"))) {
      bins.map(b -> "bin/" + b.getFileName()).sorted().forEach(command::add);
    }
    Process p =
        new ProcessBuilder(command).directory(REPO.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
  }

  private Map<String, String> environment(Path data, Path ldifs, int port) throws IOException {
    Map<String, String> env = new java.util.HashMap<>();
    env.put("ROCKDS_HOME", REPO.toString());
    env.put("ROCKDS_DATA", data.toString());
    env.put("LDAP_CUSTOM_LDIF_DIR", ldifs.toString());
    env.put("LDAP_CUSTOM_SCHEMA_DIR", dir.resolve("schemas").toString());
    env.put("LDAP_ROOT", "dc=example,dc=org");
    env.put("LDAP_ADMIN_USERNAME", "admin");
    env.put("LDAP_ADMIN_PASSWORD", "s3cret");
    env.put("LDAP_PORT_NUMBER", Integer.toString(port));
    env.put("LDAP_METRICS_PORT_NUMBER", Integer.toString(freePort()));
    env.put("LDAP_ALLOW_ANON_BINDING", "no");
    env.put("JAVA_OPTS", "-Xmx256m");
    return env;
  }

  record Exit(int code, String output) {}

  /**
   * Runs the entry point until it exits by itself (a failure); fails the test if it keeps running.
   */
  private Exit runToExit(Map<String, String> env) throws Exception {
    Process p = start(env);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("the entry point kept running");
    }
    return new Exit(
        p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  /** The image's health check against the instance in {@code data}: 0 healthy. */
  private static int healthCheck(Path data, int port) throws Exception {
    RequiredTool.assumeOnPath("ldapsearch", "ldap-utils");
    ProcessBuilder pb =
        new ProcessBuilder(REPO.resolve("docker/healthcheck.sh").toString())
            .redirectErrorStream(true);
    pb.environment().put("ROCKDS_DATA", data.toString());
    pb.environment().put("LDAP_PORT_NUMBER", Integer.toString(port));
    Process p = pb.start();
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return p.exitValue();
  }

  private Process start(Map<String, String> env) throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(REPO.resolve("docker/entrypoint.sh").toString())
            .directory(dir.toFile())
            .redirectErrorStream(true);
    pb.environment().putAll(env);
    pb.environment().remove("ROCKDS_JAVA_OPTS");
    Process p = pb.start();
    p.getOutputStream().close();
    return p;
  }

  private static void awaitPort(Process p, int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new AssertionError(
            "the entry point exited: "
                + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
      }
      try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(200);
      }
    }
    p.destroyForcibly();
    throw new AssertionError("the server did not listen on " + port);
  }

  private static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
