package io.rockds.tools;

import static io.rockds.testsupport.Processes.freePort;
import static io.rockds.tools.fixtures.BinScripts.run;
import static io.rockds.tools.fixtures.BinScripts.setup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.testsupport.Processes.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/create-rc-script}: the systemd unit it writes starts the server as systemd would (its
 * ExecStart, stopped with SIGTERM) and passes {@code systemd-analyze verify}; the init script
 * starts, reports and stops it.
 */
class CreateRcScriptIT {
  @TempDir Path dir;
  private Path instance;
  private int port;

  @BeforeEach
  void setUp() throws Exception {
    instance = dir.resolve("instance");
    port = freePort();
    Result setup = setup(instance, port, "password", "--quiet");
    assertThat(setup.exitCode()).as(setup.output()).isZero();
  }

  @Test
  void theSystemdUnitRunsTheServerInTheForegroundAndSigtermStopsItCleanly() throws Exception {
    Path unit = dir.resolve("rockds.service");
    Result created =
        run(
            "bin/create-rc-script",
            "--instance",
            instance.toString(),
            "--systemdService",
            unit.toString(),
            "-J",
            "-Xmx256m -XX:+UseSerialGC");
    assertThat(created.exitCode()).as(created.output()).isZero();
    List<String> lines = Files.readAllLines(unit);
    assertThat(lines)
        .contains(
            "Type=simple",
            "KillSignal=SIGTERM",
            "Environment=\"ROCKDS_JAVA_OPTS=-Xmx256m" + " -XX:+UseSerialGC\"",
            "WantedBy=multi-user.target");
    String execStart =
        lines.stream()
            .filter(l -> l.startsWith("ExecStart="))
            .findFirst()
            .orElseThrow()
            .substring("ExecStart=".length());
    assertThat(execStart).endsWith("--nodetach");

    ProcessBuilder pb =
        new ProcessBuilder(List.of(execStart.split(" ")))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("server.out").toFile());
    pb.environment().put("ROCKDS_JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC");
    Process server = pb.start();
    try {
      awaitListening(server);
      try (LDAPConnection c =
          new LDAPConnection("127.0.0.1", port, "cn=Directory Manager", "password")) {
        assertThat(c.getEntry("dc=example,dc=com")).isNotNull();
      }
    } finally {
      server.destroy(); // SIGTERM, as systemctl stop sends
    }
    assertThat(server.waitFor(120, TimeUnit.SECONDS)).isTrue();
    // 143 (128 + SIGTERM) is listed in SuccessExitStatus; 0 is a clean exit as well.
    assertThat(server.exitValue()).isIn(0, 143);
    assertThat(Files.readString(instance.resolve("logs/errors"))).contains("RockDS started");
  }

  @Test
  void theSystemdUnitPassesSystemdAnalyzeVerify() throws Exception {
    assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/systemd-analyze")),
        "systemd-analyze is missing: install the Debian package systemd");
    Path unit = dir.resolve("rockds.service");
    assertThat(
            run(
                    "bin/create-rc-script",
                    "--instance",
                    instance.toString(),
                    "--systemdService",
                    unit.toString())
                .exitCode())
        .isZero();
    Result verify = run("systemd-analyze", "verify", unit.toString());
    assertThat(verify.exitCode()).as(verify.output()).isZero();
    assertThat(verify.output()).doesNotContain(unit.getFileName().toString());
  }

  @Test
  void theInitScriptStartsReportsAndStopsTheServer() throws Exception {
    Path script = dir.resolve("rockds.init");
    assertThat(
            run("bin/create-rc-script", "--instance", instance.toString(), "-f", script.toString())
                .exitCode())
        .isZero();
    try {
      Result start = run(script.toString(), "start");
      assertThat(start.exitCode()).as(start.output()).isZero();
      try (LDAPConnection c = new LDAPConnection("127.0.0.1", port)) {
        assertThat(c.isConnected()).isTrue();
      }
      Result status = run(script.toString(), "status");
      assertThat(status.exitCode()).as(status.output()).isZero();
      assertThat(status.output()).contains("Server:    running");
    } finally {
      Result stop = run(script.toString(), "stop");
      assertThat(stop.exitCode()).as(stop.output()).isZero();
    }
    assertThat(Files.exists(instance.resolve("logs/server.pid"))).isFalse();
    assertThat(run(script.toString(), "bogus").exitCode()).isEqualTo(2);
  }

  @Test
  void withoutATargetFileItIsAUsageError() throws Exception {
    Result none = run("bin/create-rc-script", "--instance", instance.toString());
    assertThat(none.exitCode()).isEqualTo(2);
    assertThat(none.output()).contains("--systemdService FILE or --outputFile FILE");
  }

  private void awaitListening(Process server) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      assertThat(server.isAlive()).as(Files.readString(dir.resolve("server.out"))).isTrue();
      try (LDAPConnection c = new LDAPConnection("127.0.0.1", port)) {
        return;
      } catch (LDAPException notYet) {
        TimeUnit.MILLISECONDS.sleep(100);
      }
    }
    throw new AssertionError("the server did not listen on " + port + " within 120 s");
  }
}
