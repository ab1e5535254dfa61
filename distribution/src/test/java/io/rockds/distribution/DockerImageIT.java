package io.rockds.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image in a real Docker engine, opt-in ({@code ROCKDS_DOCKER_TEST=1}, which {@code .ci/run}
 * sets after starting dockerd): built from the distribution on the Debian-built base image ({@code
 * docker/build-base-image.sh}), it seeds several LDIF files on first start, comes back after a
 * restart and after kill -9, keeps the data when a new image runs on the same volume, runs under an
 * arbitrary uid (OpenShift), and a failed seed never reports healthy. Containers run with {@code
 * --network none}: every LDAP check is an ldapsearch inside the container.
 */
class DockerImageIT {
  private static final String BASE =
      System.getenv().getOrDefault("ROCKDS_DOCKER_BASE", "rockds-base:bookworm-jre17");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final long HEALTHY_WITHIN_SECONDS = 240;

  @TempDir Path dir;

  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final List<String> containers = new ArrayList<>();
  private final List<String> volumes = new ArrayList<>();
  private final List<String> images = new ArrayList<>();

  @BeforeEach
  void requireAnEngine() throws Exception {
    Assumptions.assumeTrue(
        "1".equals(System.getenv("ROCKDS_DOCKER_TEST")),
        "opt-in: ROCKDS_DOCKER_TEST=1 (set by .ci/run) builds and runs the Docker image");
    Result info = docker("info", "--format", "{{.ServerVersion}}");
    String log = System.getenv("ROCKDS_DOCKERD_LOG");
    Assumptions.assumeTrue(
        info.code == 0,
        "no Docker engine answers ("
            + info.output.strip()
            + ")"
            + (log != null ? "; the end of dockerd's log " + log + ": " + tail(Path.of(log)) : ""));
    Assumptions.assumeTrue(
        docker("image", "inspect", BASE).code == 0,
        "the base image "
            + BASE
            + " is missing: run docker/build-base-image.sh (as root, with debootstrap)");
  }

  @AfterEach
  void cleanUp() throws Exception {
    for (String c : containers) {
      docker("rm", "-f", c);
    }
    for (String v : volumes) {
      docker("volume", "rm", "-f", v);
    }
    for (String i : images) {
      docker("image", "rm", "-f", i);
    }
  }

  @Test
  void seedRestartKillUpgradeArbitraryUidAndAFailedSeed() throws Exception {
    String v1 = "rockds-it-" + run + ":1";
    String v2 = "rockds-it-" + run + ":2";
    build(v1);
    build(v2, "--label", "rockds.it.upgrade=" + run);
    System.out.println(
        "image size: "
            + docker("image", "inspect", "-f", "{{.Size}}", v1).output.strip()
            + " bytes");

    Path ldifs = world(Files.createDirectories(dir.resolve("ldifs")));
    world(
        Files.writeString(
            ldifs.resolve("10-base.ldif"),
            "dn: dc=example,dc=org\nobjectClass: top\nobjectClass: domain\ndc: example\n"));
    world(
        Files.writeString(
            ldifs.resolve("20-people.ldif"),
            "dn: uid=alice,dc=example,dc=org\nobjectClass: inetOrgPerson\nuid: alice\ncn: Alice\nsn: Liddell\n"));
    String volume = volume();
    String first = container(v1, volume, ldifs, List.of());
    awaitHealthy(first);
    assertThat(search(first, "uid=alice,dc=example,dc=org"))
        .as("both LDIF files seeded")
        .contains("uid: alice");

    assertThat(docker("restart", first).code).isZero();
    awaitHealthy(first);
    assertThat(docker("kill", "-s", "KILL", first).code).isZero();
    assertThat(docker("start", first).code).isZero();
    awaitHealthy(first);
    assertThat(search(first, "uid=alice,dc=example,dc=org")).contains("uid: alice");
    assertThat(docker("rm", "-f", first).code).isZero();

    String upgraded = container(v2, volume, ldifs, List.of());
    awaitHealthy(upgraded);
    assertThat(search(upgraded, "uid=alice,dc=example,dc=org"))
        .as("the data after an upgrade")
        .contains("uid: alice");
    assertThat(docker("logs", upgraded).output).contains("instance found in /data");
    assertThat(docker("rm", "-f", upgraded).code).isZero();

    String arbitrary = container(v1, volume(), ldifs, List.of("--user", "123456:0"));
    awaitHealthy(arbitrary);
    assertThat(search(arbitrary, "uid=alice,dc=example,dc=org")).contains("uid: alice");

    world(
        Files.writeString(
            ldifs.resolve("30-orphan.ldif"),
            "dn: uid=orphan,ou=Missing,dc=example,dc=org\nobjectClass: inetOrgPerson\nuid: orphan\ncn: O\nsn: O\n"));
    String failed = container(v1, volume(), ldifs, List.of());
    Result exit = docker("wait", failed);
    assertThat(exit.output.strip()).isNotEqualTo("0");
    assertThat(docker("logs", failed).output).contains("rockds: error: bad LDIF");
    docker("start", failed);
    assertThat(docker("wait", failed).output.strip()).isNotEqualTo("0");
    assertThat(docker("logs", failed).output).contains("failed while seeding");
    assertThat(docker("inspect", "-f", "{{.State.Health.Status}}", failed).output.strip())
        .isNotEqualTo("healthy");
  }

  private void build(String tag, String... extra) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                REPO.resolve("docker/build-image.sh").toString(),
                "--base",
                BASE,
                "--tag",
                tag,
                "--"));
    command.addAll(List.of(extra));
    Result built = exec(command, 900);
    assertThat(built.code).as(built.output).isZero();
    images.add(tag);
  }

  private String volume() throws Exception {
    String name = "rockds-it-" + run + "-" + volumes.size();
    assertThat(docker("volume", "create", name).code).isZero();
    volumes.add(name);
    return name;
  }

  private String container(String image, String volume, Path ldifs, List<String> options)
      throws Exception {
    String name = "rockds-it-" + run + "-c" + containers.size();
    List<String> command =
        new ArrayList<>(
            List.of(
                "run",
                "-d",
                "--name",
                name,
                "--network",
                "none",
                "-v",
                volume + ":/data",
                "-v",
                ldifs + ":/ldifs:ro",
                "-e",
                "LDAP_ROOT=dc=example,dc=org",
                "-e",
                "LDAP_ADMIN_PASSWORD=s3cret",
                "-e",
                "JAVA_OPTS=-Xmx256m"));
    command.addAll(options);
    command.add(image);
    Result started = docker(command.toArray(String[]::new));
    assertThat(started.code).as(started.output).isZero();
    containers.add(name);
    return name;
  }

  private void awaitHealthy(String container) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HEALTHY_WITHIN_SECONDS);
    String status = "";
    while (System.nanoTime() < deadline) {
      status =
          docker("inspect", "-f", "{{.State.Status}} {{.State.Health.Status}}", container)
              .output
              .strip();
      if (status.equals("running healthy")) {
        return;
      }
      if (status.startsWith("exited")) {
        break;
      }
      Thread.sleep(1000);
    }
    throw new AssertionError(
        container + " is not healthy (" + status + "): " + docker("logs", container).output);
  }

  private String search(String container, String dn) throws Exception {
    Result r =
        docker(
            "exec",
            container,
            "ldapsearch",
            "-x",
            "-LLL",
            "-H",
            "ldap://127.0.0.1:1389",
            "-D",
            "cn=admin,dc=example,dc=org",
            "-w",
            "s3cret",
            "-b",
            dn,
            "-s",
            "base");
    assertThat(r.code).as(r.output).isZero();
    return r.output;
  }

  /** Readable by the container's uid: the bind-mounted seed files. */
  private static Path world(Path path) throws Exception {
    Files.setPosixFilePermissions(
        path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
    return path;
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    } catch (Exception e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  record Result(int code, String output) {}

  private static Result docker(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("docker"));
    command.addAll(List.of(args));
    return exec(command, 300);
  }

  private static Result exec(List<String> command, long timeoutSeconds) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      return new Result(
          127, command.get(0) + " cannot run (Debian package docker.io): " + e.getMessage());
    }
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", command));
    }
    return new Result(p.exitValue(), out);
  }
}
