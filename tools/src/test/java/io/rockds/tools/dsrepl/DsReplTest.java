package io.rockds.tools.dsrepl;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.config.ConfigStore;
import io.rockds.config.ReplicationConfig;
import io.rockds.layout.Instance;
import io.rockds.tools.fixtures.InProcessSetup;
import io.rockds.tools.fixtures.ToolOutput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** setup's replication options, and dsrepl status of the stopped instance they create. */
class DsReplTest {
  @TempDir Path dir;

  private static final String ROOT_PASSWORD = "secret-12345";

  /**
   * setup of a replicated server: its instance, server ID and replication port, then {@code more}.
   */
  private static ToolOutput setupReplicated(
      Path instance, String serverId, String replicationPort, String... more) {
    List<String> options =
        new ArrayList<>(List.of("--serverId", serverId, "--replicationPort", replicationPort));
    options.addAll(List.of(more));
    return InProcessSetup.run(instance, ROOT_PASSWORD, options.toArray(String[]::new));
  }

  @Test
  void setupWritesTheGroupAndDsreplShowsItOffline() throws Exception {
    Path instance = dir.resolve("ds1");
    ToolOutput setup =
        setupReplicated(
            instance,
            "ds1",
            "8989",
            "--ldapPort",
            "1389",
            "--bootstrapReplicationServer",
            "127.0.0.1:8990",
            "--quiet");
    assertThat(setup.exitCode()).as(setup.err()).isZero();
    ReplicationConfig config =
        ReplicationConfig.read(ConfigStore.load(new Instance(instance).configFile()));
    assertThat(config.serverId()).isEqualTo("ds1");
    assertThat(config.bootstrapServers()).containsExactly("127.0.0.1:8990", "127.0.0.1:8989");
    assertThat(config.joining()).isFalse();
    assertThat(config.snapshotInterval()).isEqualTo(ReplicationConfig.DEFAULT_SNAPSHOT_INTERVAL);

    ToolOutput status =
        ToolOutput.run(new DsRepl(), "status", "--instance", instance.toString(), "-s");
    assertThat(status.exitCode()).as(status.err()).isZero();
    assertThat(status.out()).contains("127.0.0.1:8990\tunknown").contains("127.0.0.1:8989");
  }

  @Test
  void aReplicatedServerIsCreatedWithoutEntriesOfItsOwn() {
    ToolOutput setup = setupReplicated(dir.resolve("ds2"), "ds2", "8991", "--sampleData", "10");
    assertThat(setup.exitCode()).isEqualTo(2);
    assertThat(dir.resolve("ds2")).doesNotExist();
  }

  @Test
  void aServerSetUpToJoinARunningGroupSaysSo() throws Exception {
    Path instance = dir.resolve("ds4");
    ToolOutput setup =
        setupReplicated(
            instance,
            "ds4",
            "8992",
            "--joinReplicationGroup",
            "--bootstrapReplicationServer",
            "127.0.0.1:8989",
            "--quiet");
    assertThat(setup.exitCode()).as(setup.err()).isZero();
    assertThat(
            ReplicationConfig.read(ConfigStore.load(new Instance(instance).configFile())).joining())
        .isTrue();

    ToolOutput alone =
        InProcessSetup.run(dir.resolve("alone"), ROOT_PASSWORD, "--joinReplicationGroup");
    assertThat(alone.exitCode()).isEqualTo(2);
  }

  @Test
  void addServerNeedsTheServerToAdd() {
    ToolOutput add = ToolOutput.run(new DsRepl(), "add-server", "-p", "1389", "-w", "x");
    assertThat(add.exitCode()).isEqualTo(2);
    assertThat(add.err()).contains("--replicationServer");
  }
}
