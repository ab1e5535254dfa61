package io.rockds.tools.backup;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.config.ConfigStore;
import io.rockds.config.ReplicationConfig;
import io.rockds.layout.Instance;
import io.rockds.testsupport.Processes;
import io.rockds.tools.dsrepl.DsRepl;
import io.rockds.tools.fixtures.InProcessSetup;
import io.rockds.tools.fixtures.ToolOutput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/restore and dsrepl reset-server on stopped servers: the backup of a replicated server
 * restores only as the content of a new group, and what that restore and a reset leave on disk.
 * (GroupRestoreIT runs the whole procedure on a group of three servers.)
 */
class ReplicatedRestoreTest {
  @TempDir Path dir;

  @Test
  void theBackupOfAReplicatedServerRestoresOnlyAsANewGroup() throws Exception {
    int port = Processes.freePort();
    Path ds1 =
        setUp(
            "ds1",
            "--serverId",
            "ds1",
            "--replicationPort",
            Integer.toString(port),
            "--bootstrapReplicationServer",
            "127.0.0.1:" + Processes.freePort());
    Path alone = setUp("alone");
    String backups = dir.resolve("backups").toString();
    ToolOutput backup =
        ToolOutput.run(
            new Backup(), "--instance", ds1.toString(), "--backupDirectory", backups, "--quiet");
    assertThat(backup.exitCode()).as(backup.err()).isZero();

    ToolOutput intoTheServer =
        ToolOutput.run(new Restore(), "--instance", ds1.toString(), "--backupDirectory", backups);
    assertThat(intoTheServer.exitCode()).isEqualTo(1);
    assertThat(intoTheServer.err())
        .contains("is the server ds1 of a replication group")
        .contains("--newReplicationGroup");
    ToolOutput intoAnother =
        ToolOutput.run(new Restore(), "--instance", alone.toString(), "--backupDirectory", backups);
    assertThat(intoAnother.exitCode()).isEqualTo(1);
    assertThat(intoAnother.err()).contains("was taken on ds1, a server of a replication group");

    ToolOutput asNewGroup =
        ToolOutput.run(
            new Restore(),
            "--instance",
            ds1.toString(),
            "--backupDirectory",
            backups,
            "--newReplicationGroup");
    assertThat(asNewGroup.exitCode()).as(asNewGroup.err()).isZero();
    assertThat(asNewGroup.out()).contains("Started a new replication group of 127.0.0.1:" + port);
    ReplicationConfig formed = replication(ds1);
    assertThat(formed.bootstrapServers()).containsExactly("127.0.0.1:" + port);
    assertThat(formed.joining()).isFalse();
    // A new group (not the one setup's servers form), holding one snapshot of the restored data.
    List<Path> groups = children(ds1.resolve("db").resolve("replication"));
    assertThat(groups).hasSize(1);
    assertThat(groups.get(0).getFileName().toString())
        .isNotEqualTo(UUID.nameUUIDFromBytes("rockds".getBytes(StandardCharsets.UTF_8)).toString());
    assertThat(groups.get(0).resolve("sm").resolve("snapshot.0_0").resolve("state")).isDirectory();

    ToolOutput reset = ToolOutput.run(new DsRepl(), "reset-server", "--instance", ds1.toString());
    assertThat(reset.exitCode()).as(reset.err()).isZero();
    assertThat(replication(ds1).joining()).isTrue();
    assertThat(ds1.resolve("db").resolve("replication")).doesNotExist();
    assertThat(ds1.resolve("db").resolve("userRoot")).doesNotExist();
    ToolOutput resetAlone =
        ToolOutput.run(new DsRepl(), "reset-server", "--instance", alone.toString());
    assertThat(resetAlone.exitCode()).isEqualTo(1);
    assertThat(resetAlone.err()).contains("is not a server of a replication group");
  }

  private Path setUp(String name, String... options) {
    Path instance = dir.resolve(name);
    List<String> args =
        new ArrayList<>(List.of("--ldapPort", "1389", "--ldapsPort", "0", "--quiet"));
    args.addAll(List.of(options));
    ToolOutput setup = InProcessSetup.run(instance, "secret-12345", args.toArray(String[]::new));
    assertThat(setup.exitCode()).as(setup.err()).isZero();
    return instance;
  }

  private static ReplicationConfig replication(Path instance) throws Exception {
    return ReplicationConfig.read(ConfigStore.load(new Instance(instance).configFile()));
  }

  private static List<Path> children(Path directory) throws Exception {
    try (Stream<Path> children = Files.list(directory)) {
      return children.toList();
    }
  }
}
