package io.rockds.tools.backup;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import io.rockds.config.BackendConfig;
import io.rockds.layout.Instance;
import io.rockds.layout.ServerLock;
import io.rockds.server.backup.BackupDirectory;
import io.rockds.server.backup.BackupManifest;
import io.rockds.storage.Backend;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.LdapConnectionOptions;
import io.rockds.tools.RunningServer;
import io.rockds.tools.ToolRunner;
import io.rockds.tools.task.ServerTask;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rocksdb.RocksDB;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/backup}, with OpenDJ's options: backs up the backends of an instance and its
 * configuration into a backup directory. With {@code --port}/{@code --bindPassword} a running
 * server does it as a backup task (it keeps serving reads and writes); with {@code --instance}
 * alone it opens a stopped server's databases. Also lists and purges the backups of a directory.
 */
@Command(
    name = "backup",
    sortOptions = false,
    description =
        "Backs up backends and the configuration into a backup directory: through a running server"
            + " (-h/-p/-D/-w, as a backup task; it keeps serving), or offline on a stopped server's instance."
            + " Full by default; --incremental copies only the database files no earlier backup in the directory has.")
public final class Backup implements Callable<Integer> {
  @Option(
      names = "--instance",
      description = "Offline: the instance directory (default: ${DEFAULT-VALUE}).")
  Path instance = Path.of("instance");

  @Option(
      names = {"-d", "--backupDirectory"},
      required = true,
      paramLabel = "<dir>",
      description =
          "Backup directory (created if absent). Online, a relative path is relative to the server's instance.")
  String backupDirectory;

  @Option(
      names = {"-n", "--backendID"},
      paramLabel = "<backendID>",
      description = "Backend to back up (repeatable; default: all of them).")
  List<String> backendIds = new ArrayList<>();

  @Option(
      names = {"-a", "--backUpAll"},
      description = "Back up every backend (the default).")
  boolean all;

  @Option(
      names = {"-i", "--incremental"},
      description =
          "Share database files with the earlier backups of the directory: copy only new ones.")
  boolean incremental;

  @Option(
      names = {"-c", "--compress"},
      description =
          "Refused: backups are always compressed (RocksDB's SST files are block-compressed).")
  boolean compress;

  @Option(
      names = "--keepCount",
      paramLabel = "<n>",
      description = "After the backup, delete all but the newest <n> backups of the directory.")
  Integer keepCount;

  @Option(
      names = "--olderThan",
      paramLabel = "<age>",
      description =
          "After the backup, delete the backups older than <age> (30d, 12h, P30D); the newest is always kept.")
  String olderThan;

  @Option(
      names = "--purge",
      description = "Only purge (--keepCount / --olderThan): take no new backup.")
  boolean purgeOnly;

  @Option(
      names = {"-l", "--listBackups"},
      description = "Only list the backups of the directory.")
  boolean list;

  @Mixin LdapConnectionOptions connection = new LdapConnectionOptions();

  @Mixin OutputOptions output;

  public static void main(String[] args) {
    System.exit(ToolRunner.run(new Backup(), args));
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = output.out();
    if (all && !backendIds.isEmpty()) {
      throw new IllegalArgumentException("--backUpAll and --backendID exclude each other");
    }
    Duration age = olderThan == null ? null : BackupListing.age(olderThan);
    if (keepCount != null && keepCount < 1) {
      throw new IllegalArgumentException("--keepCount " + keepCount + ": must be at least 1");
    }
    if (compress) {
      throw new IllegalArgumentException(
          "--compress: backups are always compressed: they copy RocksDB's SST files, whose blocks"
              + " are compressed already (the backend's compression property, lz4 and zstd by"
              + " default); drop --compress");
    }
    boolean online = connection.namesServer();
    if (list || purgeOnly) {
      if (online) {
        throw new IllegalArgumentException(
            "--listBackups and --purge read the backup directory here: drop -p/-w");
      }
      BackupDirectory directory = new BackupDirectory(Path.of(backupDirectory), Clock.systemUTC());
      if (purgeOnly) {
        if (keepCount == null && age == null) {
          throw new IllegalArgumentException("--purge needs --keepCount or --olderThan");
        }
        purge(directory, age);
      }
      if (list) {
        BackupListing.print(directory, out);
      }
      out.flush();
      return 0;
    }
    return online ? online(age, out) : offline(age, out);
  }

  private int offline(Duration age, PrintWriter out) throws Exception {
    InstanceStorage storage = InstanceStorage.of(new Instance(instance));
    if (RunningServer.of(storage.instance()).isPresent()) {
      throw new IllegalStateException(
          "the server of "
              + storage.instance().root()
              + " is running: back up through"
              + " it with -p <ldapPort> -w <password> (it keeps serving meanwhile), or stop it with bin/stop-ds");
    }
    BackupDirectory directory =
        new BackupDirectory(storage.instance().resolve(backupDirectory), Clock.systemUTC());
    List<Backend> opened = new ArrayList<>();
    // Holding the server lock keeps a server from starting on the databases while they are copied.
    try (ServerLock lock = ServerLock.acquire(storage.instance())) {
      Map<String, RocksDB> databases = new LinkedHashMap<>();
      for (BackendConfig backend : storage.backends(null)) {
        if (backend.enabled()
            && (backendIds.isEmpty()
                || backendIds.stream().anyMatch(backend.id()::equalsIgnoreCase))) {
          Backend open = storage.openExclusive(backend);
          opened.add(open);
          databases.put(backend.id(), open.rocksDb());
        }
      }
      for (String id : backendIds) {
        storage.backend(id); // names the backends there are when one is unknown
      }
      long start = System.nanoTime();
      BackupManifest manifest =
          directory.backUp(storage.instance(), databases, incremental, output::say);
      output.say(
          "Backup "
              + manifest.backupId()
              + " of "
              + String.join(", ", databases.keySet())
              + " written to "
              + directory.root()
              + " in "
              + (System.nanoTime() - start) / 1_000_000
              + " ms");
    } finally {
      opened.forEach(Backend::close);
    }
    purge(directory, age);
    out.flush();
    return 0;
  }

  private int online(Duration age, PrintWriter out) throws Exception {
    DN dn = ServerTask.newTaskDn("backup");
    Entry task =
        new Entry(
            dn,
            new Attribute("objectClass", "top", "ds-task", "ds-task-backup"),
            new Attribute("ds-task-id", dn.getRDN().getAttributeValues()[0]),
            new Attribute("ds-backup-directory-path", backupDirectory));
    if (backendIds.isEmpty()) {
      task.addAttribute("ds-task-backup-all", "true");
    } else {
      task.addAttribute("ds-task-backup-backend-id", backendIds);
    }
    task.addAttribute("ds-task-backup-incremental", Boolean.toString(incremental));
    if (keepCount != null) {
      task.addAttribute("ds-task-backup-purge-count", keepCount.toString());
    }
    if (age != null) {
      task.addAttribute("ds-task-backup-purge-older-than", age.toString());
    }
    try (LDAPConnection server = connection.connectAndBind(false)) {
      Entry done = new ServerTask(server, out, output.quiet).run(task, "backup");
      String state = done.getAttributeValue("ds-task-state");
      if (!ServerTask.COMPLETED.equals(state)) {
        throw new IllegalStateException(
            "the backup task ended " + state + " (its log messages are above)");
      }
      return 0;
    }
  }

  private void purge(BackupDirectory directory, Duration age) throws Exception {
    if (keepCount == null && age == null) {
      return;
    }
    for (BackupManifest purged : directory.purge(keepCount == null ? 0 : keepCount, age)) {
      output.say("Purged backup " + purged.backupId() + " (" + purged.time() + ")");
    }
  }
}
