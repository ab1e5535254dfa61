package io.rockds.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.LDAPConnection;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container's entry point, run directly against the built distribution (no Docker engine runs
 * here): first start creates and seeds the instance, a second start on the same volume only
 * starts it, and a bad certificate stops it with one line. Also checks the scripts with
 * shellcheck and that every path the Dockerfile copies exists in the build.
 */
class DockerEntrypointIT {
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  @TempDir Path dir;

  @Test
  void firstStartSeedsSecondStartDoesNot() throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    Path ldifs = Files.createDirectories(dir.resolve("ldifs"));
    Files.writeString(ldifs.resolve("10-seed.ldif"), """
        dn: dc=example,dc=org
        objectClass: top
        objectClass: domain
        dc: example

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
      try (LDAPConnection admin = new LDAPConnection("127.0.0.1", port, "cn=admin,dc=example,dc=org", "s3cret")) {
        assertThat(admin.getEntry("uid=alice,dc=example,dc=org")).isNotNull();
      }
      try (LDAPConnection alice = new LDAPConnection("127.0.0.1", port, "uid=alice,dc=example,dc=org", "wonderland")) {
        assertThat(alice.isConnected()).isTrue();
      }
    } finally {
      stop(first);
    }
    Files.writeString(ldifs.resolve("20-late.ldif"), """
        dn: uid=bob,dc=example,dc=org
        objectClass: inetOrgPerson
        uid: bob
        cn: Bob
        sn: Late
        """);
    Process second = start(env);
    try {
      awaitPort(second, port);
      try (LDAPConnection admin = new LDAPConnection("127.0.0.1", port, "cn=admin,dc=example,dc=org", "s3cret")) {
        assertThat(admin.getEntry("uid=alice,dc=example,dc=org")).isNotNull();
        assertThat(admin.getEntry("uid=bob,dc=example,dc=org")).as("LDIF is imported on first start only").isNull();
      }
    } finally {
      stop(second);
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
    assertThat(out).contains("rockds: error: cannot read LDAP_TLS_CERT_FILE=" + dir.resolve("missing.pem"))
        .doesNotContain("\tat ");
  }

  @Test
  void scriptsPassShellcheck() throws Exception {
    boolean present = Files.isExecutable(Path.of("/usr/bin/shellcheck"));
    if (System.getenv("CI") != null && !present) {
      throw new AssertionError("shellcheck is not installed: .ci/run must install it");
    }
    Assumptions.assumeTrue(present, "shellcheck is not installed");
    List<String> command = new ArrayList<>(List.of("shellcheck", "-x", "docker/entrypoint.sh", "docker/healthcheck.sh",
        "benchmarks/run.sh", "benchmarks/slapd/slapd-reference.sh"));
    try (var bins = Files.list(REPO.resolve("bin"))) {
      bins.map(b -> "bin/" + b.getFileName()).sorted().forEach(command::add);
    }
    Process p = new ProcessBuilder(command).directory(REPO.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
  }

  @Test
  void everyPathTheDockerfileCopiesExists() throws Exception {
    Pattern copy = Pattern.compile("^COPY (--from=build )?(.+?) (\\S+)$");
    int checked = 0;
    for (String line : Files.readAllLines(REPO.resolve("docker/Dockerfile"))) {
      Matcher m = copy.matcher(line.trim());
      if (!m.matches()) {
        continue;
      }
      for (String source : m.group(2).split(" ")) {
        Path path = REPO.resolve(m.group(1) != null ? source.replaceFirst("^/src/", "") : source);
        assertThat(Files.exists(path)).as("COPY source %s of: %s", path, line).isTrue();
        checked++;
      }
    }
    assertThat(checked).isGreaterThanOrEqualTo(10);
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

  private Process start(Map<String, String> env) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(REPO.resolve("docker/entrypoint.sh").toString())
        .directory(dir.toFile()).redirectErrorStream(true);
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
        throw new AssertionError("the entry point exited: "
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
