package io.rockds.distribution;

import static io.rockds.testsupport.Processes.freePort;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.LDAPConnection;
import io.rockds.testsupport.Processes;
import io.rockds.testsupport.Processes.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archives {@code ./mvnw package} makes, used as an operator would: unpacked in a directory far
 * from the source tree, with no Maven and a PATH holding only the system's programs, {@code
 * bin/setup} and {@code bin/start-ds} give a server that answers; every tool prints its version and
 * commit.
 */
class DistributionIT {
  private static final Path TARGET = Path.of("target").toAbsolutePath();

  @TempDir Path dir;

  @Test
  void theTarballUnpackedAnywhereSetsUpStartsAndStopsAServer() throws Exception {
    Path tarball = archive(".tar.gz");
    assertThat(run(dir, "tar", "-xzf", tarball.toString()).exitCode()).isZero();
    Path home;
    try (var unpacked = Files.list(dir)) {
      home = unpacked.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    assertThat(home.getFileName().toString()).startsWith("rockds-");
    for (String file :
        List.of(
            "README.md",
            "LICENSE",
            "bin/setup",
            "bin/start-ds",
            "bin/backup",
            "bin/restore",
            "schema/10-core.ldif",
            "templates/example.template",
            "docker/Dockerfile",
            "docker/entrypoint.sh")) {
      assertThat(home.resolve(file)).as(file).exists();
    }
    assertThat(Files.getPosixFilePermissions(home.resolve("bin/start-ds")))
        .contains(PosixFilePermission.OWNER_EXECUTE);
    int copied = 0;
    for (String line : Files.readAllLines(home.resolve("docker/Dockerfile"))) {
      if (line.startsWith("COPY ")) {
        String[] words = line.split(" ");
        for (int i = 1; i < words.length - 1; i++) {
          assertThat(home.resolve(words[i]))
              .as("COPY source %s of the Dockerfile in the distribution", words[i])
              .exists();
          copied++;
        }
      }
    }
    assertThat(copied).isGreaterThanOrEqualTo(7);
    try (var jars = Files.list(home.resolve("lib"))) {
      assertThat(jars.map(p -> p.getFileName().toString()).toList())
          .anySatisfy(j -> assertThat(j).startsWith("rockds-tools-"))
          .anySatisfy(j -> assertThat(j).startsWith("rocksdbjni-"));
    }

    for (String tool :
        List.of(
            "setup",
            "start-ds",
            "stop-ds",
            "status",
            "backup",
            "restore",
            "import-ldif",
            "export-ldif",
            "verify-index",
            "rebuild-index",
            "backendstat")) {
      Result version = run(dir, home.resolve("bin").resolve(tool).toString(), "--version");
      assertThat(version.exitCode()).as(tool + ": " + version.output()).isZero();
      assertThat(version.output())
          .as(tool)
          .containsPattern("RockDS \\S+ \\(commit ([0-9a-f]{7,}|unknown)\\)");
    }

    int port = freePort();
    Path instance = dir.resolve("instance");
    Result setup =
        run(
            dir,
            home.resolve("bin/setup").toString(),
            "--instance",
            instance.toString(),
            "--ldapPort",
            Integer.toString(port),
            "--ldapsPort",
            "0",
            "--rootUserPassword",
            "secret12",
            "--quiet");
    assertThat(setup.exitCode()).as(setup.output()).isZero();
    try {
      Result start =
          run(dir, home.resolve("bin/start-ds").toString(), "--instance", instance.toString());
      assertThat(start.exitCode()).as(start.output()).isZero();
      try (LDAPConnection ldap =
          new LDAPConnection("127.0.0.1", port, "cn=Directory Manager", "secret12")) {
        assertThat(ldap.getRootDSE().getAttributeValue("vendorName")).isNotBlank();
      }
    } finally {
      Result stop =
          run(dir, home.resolve("bin/stop-ds").toString(), "--instance", instance.toString());
      assertThat(stop.exitCode()).as(stop.output()).isZero();
    }
  }

  @Test
  void theZipHoldsTheSameFilesAsTheTarball() throws Exception {
    Path tarball = archive(".tar.gz");
    Result listing = run(dir, "tar", "-tzf", tarball.toString());
    List<String> tarFiles =
        listing.output().lines().filter(l -> !l.endsWith("/")).sorted().toList();
    List<String> zipFiles = new ArrayList<>();
    try (ZipFile zip = new ZipFile(archive(".zip").toFile())) {
      for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
        ZipEntry entry = e.nextElement();
        if (!entry.isDirectory()) {
          zipFiles.add(entry.getName());
        }
      }
    }
    zipFiles.sort(null);
    assertThat(zipFiles).isEqualTo(tarFiles).isNotEmpty();
  }

  private static Path archive(String suffix) throws IOException {
    try (var files = Files.list(TARGET)) {
      return files
          .filter(p -> p.getFileName().toString().matches("rockds-.*" + suffix.replace(".", "\\.")))
          .findFirst()
          .orElseThrow(
              () ->
                  new AssertionError(
                      "no rockds-*" + suffix + " in " + TARGET + ": run ./mvnw package"));
    }
  }

  /**
   * Runs with the working directory {@code cwd} and a bare environment: no Maven, only the system's
   * PATH.
   */
  private static Result run(Path cwd, String... command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile());
    Map<String, String> env = pb.environment();
    String javaHome = System.getProperty("java.home");
    env.clear();
    env.put("PATH", javaHome + "/bin:/usr/bin:/bin");
    env.put("HOME", cwd.toString());
    return Processes.run(pb);
  }
}
