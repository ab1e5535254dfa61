package io.rockds.server.task;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.layout.Instance;
import io.rockds.server.Backends;
import io.rockds.server.backup.BackupDirectory;
import io.rockds.server.backup.BackupManifest;
import io.rockds.storage.Backend;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.rocksdb.RocksDB;

/**
 * An online backup ({@code objectClass: ds-task-backup}), as OpenDJ's backup task: {@code
 * ds-backup-directory-path} (relative to the instance unless absolute), the backends in {@code
 * ds-task-backup-backend-id} or all of them with {@code ds-task-backup-all: true}, and {@code
 * ds-task-backup-incremental}. RocksDB copies the live files while clients keep writing; each
 * backend's backup is consistent at one sequence number. RockDS adds purging after the backup:
 * {@code ds-task-backup-purge-count} (keep that many) and {@code ds-task-backup-purge-older-than}
 * (an ISO-8601 duration such as {@code P30D}).
 */
final class BackupTask extends ScheduledTask {
  static final String OBJECT_CLASS = "ds-task-backup";
  static final String DIRECTORY = "ds-backup-directory-path";
  static final String BACKEND_ID = "ds-task-backup-backend-id";
  static final String ALL = "ds-task-backup-all";
  static final String INCREMENTAL = "ds-task-backup-incremental";
  static final String PURGE_COUNT = "ds-task-backup-purge-count";
  static final String PURGE_OLDER_THAN = "ds-task-backup-purge-older-than";

  /** Set once done: the backup ID taken, for bin/backup to print. */
  static final String BACKUP_ID = "ds-backup-id";

  static final String PRIVILEGE = "backend-backup";

  private final Instance instance;
  private final BackupDirectory directory;
  private final List<Backend> backends;
  private final boolean incremental;
  private final int purgeCount;
  private final Duration purgeOlderThan;
  private volatile String backupId;

  private BackupTask(
      Entry request,
      Instance instance,
      BackupDirectory directory,
      List<Backend> backends,
      boolean incremental,
      int purgeCount,
      Duration purgeOlderThan)
      throws LDAPException {
    super(request);
    this.instance = instance;
    this.directory = directory;
    this.backends = backends;
    this.incremental = incremental;
    this.purgeCount = purgeCount;
    this.purgeOlderThan = purgeOlderThan;
  }

  /** Checks a task entry as added: a directory and backends the server has. */
  static BackupTask of(Entry request, Instance instance, Backends backends) throws LDAPException {
    String path = request.getAttributeValue(DIRECTORY);
    if (path == null || path.isBlank()) {
      throw unwilling("the task needs " + DIRECTORY);
    }
    String[] ids = request.getAttributeValues(BACKEND_ID);
    boolean all = Boolean.TRUE.equals(request.getAttributeValueAsBoolean(ALL));
    if (all == (ids != null && ids.length > 0)) {
      throw unwilling(
          "name the backends in " + BACKEND_ID + " or set " + ALL + ": true (one of the two)");
    }
    List<Backend> chosen = all ? backends.all() : new java.util.ArrayList<>();
    if (!all) {
      for (String id : ids) {
        Backend backend = backends.get(id);
        if (backend == null) {
          throw unwilling(
              BACKEND_ID
                  + " "
                  + id
                  + ": no such backend (there are: "
                  + String.join(", ", backends.all().stream().map(Backend::id).toList())
                  + ")");
        }
        chosen.add(backend);
      }
    }
    int purgeCount = 0;
    String count = request.getAttributeValue(PURGE_COUNT);
    if (count != null) {
      try {
        purgeCount = Integer.parseInt(count);
      } catch (NumberFormatException e) {
        purgeCount = -1;
      }
      if (purgeCount < 1) {
        throw unwilling(PURGE_COUNT + " " + count + ": not a positive number");
      }
    }
    Duration olderThan = null;
    String age = request.getAttributeValue(PURGE_OLDER_THAN);
    if (age != null) {
      try {
        olderThan = Duration.parse(age);
      } catch (DateTimeParseException e) {
        throw unwilling(
            PURGE_OLDER_THAN + " " + age + ": not an ISO-8601 duration such as P30D or PT12H");
      }
    }
    return new BackupTask(
        request,
        instance,
        new BackupDirectory(instance.resolve(path), Clock.systemUTC()),
        List.copyOf(chosen),
        Boolean.TRUE.equals(request.getAttributeValueAsBoolean(INCREMENTAL)),
        purgeCount,
        olderThan);
  }

  @Override
  String kind() {
    return "Backup";
  }

  @Override
  void execute(BooleanSupplier stopping) throws IOException {
    log(
        (incremental ? "Incremental" : "Full")
            + " backup of "
            + String.join(", ", backends.stream().map(Backend::id).toList())
            + " into "
            + directory.root()
            + " started");
    Map<String, RocksDB> databases = new LinkedHashMap<>();
    backends.forEach(b -> databases.put(b.id(), b.rocksDb()));
    BackupManifest manifest =
        directory.backUp(
            instance,
            databases,
            incremental,
            message -> {
              log(message);
              if (stopping.getAsBoolean()) {
                throw new Stopped();
              }
            });
    backupId = manifest.backupId();
    log(
        "Backup "
            + backupId
            + " completed in "
            + (System.currentTimeMillis() - started().toEpochMilli())
            + " ms");
    if (purgeCount > 0 || purgeOlderThan != null) {
      for (BackupManifest purged : directory.purge(purgeCount, purgeOlderThan)) {
        log("Purged backup " + purged.backupId());
      }
    }
  }

  @Override
  void describe(Entry entry) {
    if (backupId != null) {
      entry.setAttribute(BACKUP_ID, backupId);
    }
  }

  private static LDAPException unwilling(String message) {
    return ScheduledTask.unwilling("backup", message);
  }
}
