package io.rockds.tools.backup;

import io.rockds.layout.Instance;
import io.rockds.layout.ServerLock;
import io.rockds.server.backup.BackupDirectory;
import io.rockds.server.backup.BackupManifest;
import io.rockds.server.replication.GroupRestore;
import io.rockds.tools.ToolRunner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/restore}, with OpenDJ's options: restores a backup (the latest, or {@code --backupID})
 * into a stopped instance, an existing one or one just created with setup, replacing its
 * configuration, schema and databases. Every checksum is verified first; {@code --dry-run} only
 * verifies. It holds the instance's server lock meanwhile, so no server starts on a half restore.
 */
@Command(
    name = "restore",
    sortOptions = false,
    description =
        "Restores a backup into a stopped instance (its configuration, schema and databases), after"
            + " verifying every file's checksum. --dry-run only verifies; --listBackups lists the backups.")
public final class Restore implements Callable<Integer> {
  @Option(
      names = "--instance",
      description = "The instance to restore into (default: ${DEFAULT-VALUE}).")
  Path instance = Path.of("instance");

  @Option(
      names = {"-d", "--backupDirectory"},
      required = true,
      paramLabel = "<dir>",
      description = "Backup directory.")
  Path backupDirectory;

  @Option(
      names = {"-I", "--backupID"},
      paramLabel = "<backupID>",
      description = "The backup to restore (default: the latest).")
  String backupId;

  @Option(
      names = {"-l", "--listBackups"},
      description = "Only list the backups of the directory.")
  boolean list;

  @Option(names = "--dry-run", description = "Only verify the backup's checksums; change nothing.")
  boolean dryRun;

  @Option(
      names = "--newReplicationGroup",
      description =
          "Restore the backup of a replicated server as the content of a new replication group,"
              + " this server its only member (every server of the group stopped): its data and"
              + " shared settings are the backup's, its own settings stay, its replication log is"
              + " replaced. The other servers are then emptied (dsrepl reset-server) and added.")
  boolean newReplicationGroup;

  @Mixin OutputOptions output;

  public static void main(String[] args) {
    System.exit(ToolRunner.run(new Restore(), args));
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = output.out();
    BackupDirectory directory = new BackupDirectory(backupDirectory, Clock.systemUTC());
    if (list) {
      BackupListing.print(directory, out);
      out.flush();
      return 0;
    }
    BackupManifest backup = directory.get(backupId);
    long start = System.nanoTime();
    if (dryRun) {
      directory.verify(backup, output::say);
      output.say(
          "Backup "
              + backup.backupId()
              + " is intact (verified in "
              + (System.nanoTime() - start) / 1_000_000
              + " ms)");
      return 0;
    }
    Instance target = new Instance(instance);
    try (ServerLock lock = ServerLock.acquire(target)) {
      if (newReplicationGroup) {
        GroupRestore.newGroup(directory, backup, target, output::say);
      } else {
        directory.restore(backup, target, output::say);
      }
    } catch (java.io.IOException e) {
      if (ServerLock.isHeld(target)) {
        throw new IllegalStateException(
            "cannot restore: " + e.getMessage() + " (stop it with bin/stop-ds)", e);
      }
      throw e;
    }
    output.say(
        "Restored backup "
            + backup.backupId()
            + " into "
            + target.root()
            + " in "
            + (System.nanoTime() - start) / 1_000_000
            + " ms");
    return 0;
  }
}
