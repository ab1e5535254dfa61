package io.rockds.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.tools.backendstat.BackendStat;
import io.rockds.tools.fixtures.ToolOutput;
import io.rockds.tools.ldif.ExportLdif;
import io.rockds.tools.ldif.ImportLdif;
import io.rockds.tools.rebuild.RebuildIndex;
import io.rockds.tools.setup.Setup;
import io.rockds.tools.status.Status;
import io.rockds.tools.verify.VerifyIndex;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every tool does alike, as OpenDJ's: help with {@code --help}, {@code -H} or {@code -?}, the
 * version with {@code -V}, exit 2 on bad usage, and {@code -h} meaning the host name in the tools
 * that connect.
 */
class ToolConventionsTest {
  private static final Map<String, Supplier<Object>> TOOLS =
      Map.of(
          "setup", Setup::new,
          "status", Status::new,
          "import-ldif", ImportLdif::new,
          "export-ldif", ExportLdif::new,
          "backendstat", BackendStat::new,
          "verify-index", VerifyIndex::new,
          "rebuild-index", RebuildIndex::new,
          "makeldif", io.rockds.tools.makeldif.MakeLdif::new,
          "dsrepl", io.rockds.tools.dsrepl.DsRepl::new,
          "dsconfig", io.rockds.tools.dsconfig.DsConfig::command);

  @TempDir Path dir;

  @Test
  void everyToolPrintsItsHelpWithEachOfOpenDjsOptions() {
    TOOLS.forEach(
        (name, tool) -> {
          for (String option : List.of("--help", "-H", "-?")) {
            ToolOutput o = ToolOutput.run(tool.get(), option);
            assertThat(o.exitCode()).as(name + " " + option).isZero();
            assertThat(o.out()).as(name + " " + option).startsWith("Usage: " + name);
          }
        });
  }

  @Test
  void everyToolPrintsTheVersion() {
    TOOLS.forEach(
        (name, tool) -> {
          for (String option : List.of("-V", "--version")) {
            ToolOutput o = ToolOutput.run(tool.get(), option);
            assertThat(o.exitCode()).as(name + " " + option).isZero();
            assertThat(o.out().strip())
                .as(name + " " + option)
                .matches("RockDS \\d+\\.\\d+\\S*( \\(commit \\w+\\))?");
          }
        });
  }

  @Test
  void backendstatSubcommandsHaveHelpAndVersionToo() {
    ToolOutput help = ToolOutput.run(new BackendStat(), "show-index-status", "-?");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).startsWith("Usage: backendstat show-index-status");
  }

  @Test
  void anUnknownOptionIsAUsageErrorWithExitCode2() {
    TOOLS.forEach(
        (name, tool) -> {
          ToolOutput o = ToolOutput.run(tool.get(), "--no-such-option");
          assertThat(o.exitCode()).as(name).isEqualTo(ToolRunner.EXIT_USAGE);
          // The first usage error is named (a missing required option may come first).
          assertThat(o.err())
              .as(name)
              .containsPattern("Unknown option: '--no-such-option'|Missing required");
        });
  }

  /** {@code -h} is the host: rebuild-index tries to connect to it instead of printing its help. */
  @Test
  void dashHIsTheHostNameInToolsThatConnect() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    String port = Integer.toString(closedPort);
    ToolOutput rebuild =
        ToolOutput.run(
            new RebuildIndex(),
            "-h",
            "127.0.0.1",
            "-p",
            port,
            "-D",
            "cn=Directory Manager",
            "-w",
            "secret",
            "-b",
            "dc=example,dc=com",
            "--index",
            "sn");
    assertThat(rebuild.exitCode()).isEqualTo(ToolRunner.EXIT_FAILURE);
    assertThat(rebuild.out()).doesNotContain("Usage:");
    assertThat(rebuild.err()).contains("cannot connect to 127.0.0.1:" + port);

    ToolOutput dsconfig =
        ToolOutput.run(
            io.rockds.tools.dsconfig.DsConfig.command(),
            "-h",
            "127.0.0.1",
            "-p",
            port,
            "-w",
            "secret",
            "-n",
            "get-global-configuration-prop");
    assertThat(dsconfig.exitCode()).isEqualTo(ToolRunner.EXIT_FAILURE);
    assertThat(dsconfig.err()).contains("cannot connect to 127.0.0.1:" + port);
  }

  @Test
  void makeldifTakesTheTemplateAsItsLastArgument() {
    Path ldif = dir.resolve("out.ldif");
    ToolOutput o =
        ToolOutput.run(
            new io.rockds.tools.makeldif.MakeLdif(),
            "-c",
            "numusers=3",
            "-o",
            ldif.toString(),
            "-Q",
            "example.template");
    assertThat(o.exitCode()).as(o.err()).isZero();
    assertThat(ldif).content().contains("dn: uid=user.2,");
    ToolOutput both =
        ToolOutput.run(
            new io.rockds.tools.makeldif.MakeLdif(), "-t", "example.template", "example.template");
    assertThat(both.exitCode()).isEqualTo(ToolRunner.EXIT_USAGE);
    ToolOutput none = ToolOutput.run(new io.rockds.tools.makeldif.MakeLdif(), "-Q");
    assertThat(none.exitCode()).isEqualTo(ToolRunner.EXIT_USAGE);
    assertThat(none.err()).contains("a template is required");
  }
}
