package io.rockds.tools.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.layout.Instance;
import io.rockds.server.DirectoryServer;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexType;
import io.rockds.tools.dsconfig.DsConfig;
import io.rockds.tools.fixtures.SampleInstance;
import io.rockds.tools.fixtures.ToolOutput;
import io.rockds.tools.verify.VerifyIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dsconfig creates an index in the running server; rebuild-index rebuilds it through the server.
 */
class OnlineRebuildIT {
  @TempDir Path dir;

  @Test
  void indexCreatedByDsconfigIsUntrustedUntilRebuildIndexRebuildsItOnline() throws Exception {
    Instance instance = SampleInstance.copyTo(dir.resolve("instance"));
    try (DirectoryServer server = DirectoryServer.start(instance)) {
      String port = Integer.toString(server.ldapPort());
      ToolOutput created =
          ToolOutput.run(
              DsConfig.command(),
              "-h",
              "127.0.0.1",
              "-p",
              port,
              "-D",
              "cn=Directory Manager",
              "-w",
              "password",
              "-n",
              "create-backend-index",
              "--backend-name",
              "userRoot",
              "--index-name",
              "employeeNumber",
              "--set",
              "index-type:equality",
              "--set",
              "index-entry-limit:50");
      assertThat(created.exitCode()).as(created.err()).isZero();
      EntryContainer container = server.backends().containerFor(SampleInstance.BASE);
      AttributeIndex index = container.index("employeeNumber", IndexType.EQUALITY);
      assertThat(index).isNotNull();
      assertThat(index.isTrusted()).isFalse();

      ToolOutput rebuilt = rebuildOnline(port, "password", "--index", "employeeNumber");
      assertThat(rebuilt.exitCode()).as(rebuilt.out() + rebuilt.err()).isZero();
      assertThat(rebuilt.out())
          .contains("Rebuild task ds-task-id=rebuild-")
          .containsPattern("Rebuilt employeeNumber\\.\\S+ from 1000\\d entries");
      assertThat(index.isTrusted()).isTrue();

      ToolOutput verified =
          ToolOutput.run(
              new VerifyIndex(),
              "--instance",
              instance.root().toString(),
              "-b",
              "dc=example,dc=com",
              "--index",
              "employeeNumber");
      assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
      assertThat(verified.err())
          .contains("the server is running")
          .contains("consistent read-only snapshot")
          .contains("verify-index");

      ToolOutput degraded = rebuildOnline(port, "password", "--rebuildDegraded", "--quiet");
      assertThat(degraded.exitCode()).as(degraded.err()).isZero();
      ToolOutput wrongPassword = rebuildOnline(port, "wrong", "--rebuildAll");
      assertThat(wrongPassword.exitCode()).isEqualTo(1);
    }
  }

  /** rebuild-index through the server at 127.0.0.1:{@code port}, under dc=example,dc=com. */
  private static ToolOutput rebuildOnline(String port, String password, String... selection) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--hostname", "127.0.0.1", "-p", port, "-w", password, "-b", "dc=example,dc=com"));
    args.addAll(List.of(selection));
    return ToolOutput.run(new RebuildIndex(), args.toArray(String[]::new));
  }
}
