package io.rockds.server.backup;

import io.rockds.config.BackendConfig;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.ReplicationConfig;
import io.rockds.config.ServerConfig;
import io.rockds.layout.Instance;
import io.rockds.server.BuildInfo;
import io.rockds.server.replication.ReplicatedSettings;
import io.rockds.storage.backup.DatabaseBackup;
import io.rockds.storage.backup.DatabaseBackups;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.rocksdb.RocksDB;

/**
 * A backup directory holding any number of instance backups, each named by its backup ID (the UTC
 * time it was taken, {@code 20261125130501123Z}):
 *
 * <pre>
 *   db/&lt;backendID&gt;/              RocksDB's backup engine: meta/, private/, shared_checksum/
 *   &lt;backupID&gt;/config/...         config.ldif, schema/, keystore as they were
 *   &lt;backupID&gt;/manifest.properties  written last; see {@link BackupManifest}
 * </pre>
 *
 * Incremental backups share SST files with the earlier ones through {@code shared_checksum/}; full
 * ones copy every file into the engine's {@code private/}. Every file is checksummed: CRC32C for
 * the database files (RocksDB's), SHA-256 for the configuration (the manifest's).
 */
public final class BackupDirectory {
  private static final DateTimeFormatter ID =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final String ARCHIVED_CONFIGS = "archived-configs";

  private final Path root;
  private final Clock clock;

  public BackupDirectory(Path root, Clock clock) {
    this.root = root.toAbsolutePath().normalize();
    this.clock = clock;
  }

  public Path root() {
    return root;
  }

  /**
   * Backs up {@code databases} (backend ID to open database; writes go on meanwhile) and the
   * instance's configuration; {@code log} hears one line per step.
   */
  public BackupManifest backUp(
      Instance instance, Map<String, RocksDB> databases, boolean incremental, Consumer<String> log)
      throws IOException {
    Instant time = clock.instant();
    String backupId = ID.format(time);
    Path directory = root.resolve(backupId);
    for (int n = 2; Files.exists(directory); n++) {
      backupId = ID.format(time) + "-" + n;
      directory = root.resolve(backupId);
    }
    Files.createDirectories(directory);
    Path configDir = instance.configFile().getParent();
    long settingsBefore = ReplicatedSettings.appliedIndex(configDir);
    Map<String, BackupManifest.BackendBackup> backends = new LinkedHashMap<>();
    for (Map.Entry<String, RocksDB> db : databases.entrySet()) {
      DatabaseBackup backup = engine(db.getKey()).create(db.getValue(), backupId, incremental);
      backends.put(
          db.getKey(), new BackupManifest.BackendBackup(backup.number(), backup.sequence()));
      log.accept(
          "Backed up backend "
              + db.getKey()
              + " ("
              + backup.files().size()
              + " files, consistent at sequence "
              + backup.sequence()
              + ")");
    }
    Map<String, String> configFiles = copyConfig(configDir, directory.resolve("config"));
    long settingsCopied = ReplicatedSettings.appliedIndex(directory.resolve("config"));
    if (settingsCopied != settingsBefore
        || ReplicatedSettings.appliedIndex(configDir) != settingsBefore) {
      // The copied settings may postdate the data: a restore would not be one consistent state.
      for (Map.Entry<String, BackupManifest.BackendBackup> backend : backends.entrySet()) {
        engine(backend.getKey()).delete(backend.getValue().number());
      }
      deleteTree(directory);
      throw new IOException(
          "the shared settings changed while the backup was taken (a replicated settings change"
              + " was applied, log index "
              + settingsCopied
              + "): the backup would hold settings newer than its data; take it again");
    }
    log.accept("Backed up the configuration and schema (" + configFiles.size() + " files)");
    BackupManifest manifest =
        new BackupManifest(
            backupId, time, BuildInfo.current().version(), incremental, backends, configFiles);
    manifest.write(directory);
    return manifest;
  }

  /** The complete backups, oldest first (a backup interrupted before its manifest is not one). */
  public List<BackupManifest> list() throws IOException {
    List<BackupManifest> backups = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return backups;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
      for (Path entry : entries) {
        if (Files.exists(entry.resolve(BackupManifest.FILE))) {
          backups.add(BackupManifest.read(entry));
        }
      }
    }
    backups.sort(
        Comparator.comparing(BackupManifest::time).thenComparing(BackupManifest::backupId));
    return backups;
  }

  /** The backup {@code backupId}, or the latest one when null. */
  public BackupManifest get(String backupId) throws IOException {
    List<BackupManifest> all = list();
    if (all.isEmpty()) {
      throw new IOException("no backup in " + root);
    }
    if (backupId == null) {
      return all.get(all.size() - 1);
    }
    return all.stream()
        .filter(b -> b.backupId().equals(backupId))
        .findFirst()
        .orElseThrow(
            () ->
                new IOException(
                    "no backup "
                        + backupId
                        + " in "
                        + root
                        + " (there are: "
                        + String.join(", ", all.stream().map(BackupManifest::backupId).toList())
                        + ")"));
  }

  /** Recomputes every checksum of a backup; throws naming the first file missing or corrupted. */
  public void verify(BackupManifest backup, Consumer<String> log) throws IOException {
    Path config = root.resolve(backup.backupId()).resolve("config");
    for (Map.Entry<String, String> file : backup.configFiles().entrySet()) {
      Path path = config.resolve(file.getKey());
      if (!Files.exists(path)) {
        throw new IOException(path + ": missing from backup " + backup.backupId());
      }
      String actual = sha256(path);
      if (!actual.equals(file.getValue())) {
        throw new IOException(
            path
                + ": corrupted (SHA-256 "
                + actual
                + ", the backup recorded "
                + file.getValue()
                + ")");
      }
    }
    for (Map.Entry<String, BackupManifest.BackendBackup> backend : backup.backends().entrySet()) {
      engine(backend.getKey()).verify(backend.getValue().number());
      log.accept("Backend " + backend.getKey() + ": every file matches its checksum");
    }
    log.accept("Configuration: " + backup.configFiles().size() + " files match their checksums");
  }

  /** The configuration directory (config.ldif, schema/) as a backup holds it. */
  public Path configDirectory(BackupManifest backup) {
    return root.resolve(backup.backupId()).resolve("config");
  }

  /**
   * Restores a backup into a stopped instance (the caller holds its lock): verifies it, puts its
   * configuration and schema in place, then replaces each backend's database by the backed-up one.
   * Refused when the instance or the backup is a server of a replication group: restoring one
   * server alone would be undone by its group, or make it take the place of the backed-up server in
   * that server's group; {@code GroupRestore} restores a group.
   */
  public void restore(BackupManifest backup, Instance instance, Consumer<String> log)
      throws IOException {
    refuseReplicated(backup, instance);
    verify(backup, log);
    Path configDir = instance.configFile().getParent();
    Path source = configDirectory(backup);
    for (String file : backup.configFiles().keySet()) {
      Path target = configDir.resolve(file);
      Files.createDirectories(target.getParent());
      Path tmp = target.resolveSibling(target.getFileName() + ".restoring");
      Files.copy(source.resolve(file), tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
    log.accept("Restored the configuration and schema (" + backup.configFiles().size() + " files)");
    ServerConfig config;
    try {
      config = ServerConfig.read(ConfigStore.load(instance.configFile()));
    } catch (ConfigException e) {
      throw new IOException(
          "the restored " + instance.configFile() + " does not load: " + e.getMessage(), e);
    }
    restoreDatabases(backup, instance, config, log);
  }

  private void refuseReplicated(BackupManifest backup, Instance instance) throws IOException {
    ReplicationConfig target = replicationOf(instance.configFile());
    if (target != null) {
      throw new IOException(
          instance.root()
              + " is the server "
              + target.serverId()
              + " of a replication group: a backup restored into one server alone is undone by"
              + " the group's log and snapshots. To make it the content of the whole group, stop"
              + " every server of the group and restore it with --newReplicationGroup"
              + " (docs/replication.md, Restoring a group from a backup)");
    }
    ReplicationConfig source =
        replicationOf(configDirectory(backup).resolve(instance.configFile().getFileName()));
    if (source != null) {
      throw new IOException(
          "backup "
              + backup.backupId()
              + " was taken on "
              + source.serverId()
              + ", a server of a replication group: restored as it is, "
              + instance.root()
              + " would pose as that server in its group. Restore it into a server set up for"
              + " replication, with --newReplicationGroup");
    }
  }

  /** The replication settings of a configuration file; null when it has none or is absent. */
  private static ReplicationConfig replicationOf(Path configFile) throws IOException {
    if (!Files.exists(configFile)) {
      return null;
    }
    try {
      return ReplicationConfig.read(ConfigStore.load(configFile));
    } catch (ConfigException e) {
      throw new IOException(configFile + " does not load: " + e.getMessage(), e);
    }
  }

  /**
   * Replaces the database of each backend of the backup, as {@code config} places it (each restored
   * next to it, then swapped in).
   */
  public void restoreDatabases(
      BackupManifest backup, Instance instance, ServerConfig config, Consumer<String> log)
      throws IOException {
    for (Map.Entry<String, BackupManifest.BackendBackup> backend : backup.backends().entrySet()) {
      BackendConfig backendConfig =
          config.backends().stream()
              .filter(b -> b.id().equals(backend.getKey()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IOException(
                          "backend "
                              + backend.getKey()
                              + " of the backup is not in the restored configuration"));
      Path db = instance.resolve(backendConfig.dbDirectory());
      Path restoring = db.resolveSibling(db.getFileName() + ".restoring");
      deleteTree(restoring);
      engine(backend.getKey()).restore(backend.getValue().number(), restoring);
      deleteTree(db);
      Files.move(restoring, db, StandardCopyOption.ATOMIC_MOVE);
      log.accept(
          "Restored backend "
              + backend.getKey()
              + " into "
              + db
              + " (sequence "
              + backend.getValue().sequence()
              + ")");
    }
  }

  /**
   * Deletes the backups beyond the newest {@code keepCount} (0: no count limit) and those older
   * than {@code olderThan} (null: no age limit); the newest backup is always kept. Returns the
   * deleted ones.
   */
  public List<BackupManifest> purge(int keepCount, Duration olderThan) throws IOException {
    List<BackupManifest> all = list();
    List<BackupManifest> deleted = new ArrayList<>();
    Instant cutoff = olderThan == null ? null : clock.instant().minus(olderThan);
    for (int i = 0; i < all.size() - 1; i++) {
      BackupManifest backup = all.get(i);
      boolean beyondCount = keepCount > 0 && all.size() - i > keepCount;
      boolean tooOld = cutoff != null && backup.time().isBefore(cutoff);
      if (beyondCount || tooOld) {
        // The manifest goes first: a purge cut short leaves an incomplete backup, never a broken
        // one.
        Files.delete(root.resolve(backup.backupId()).resolve(BackupManifest.FILE));
        for (Map.Entry<String, BackupManifest.BackendBackup> backend :
            backup.backends().entrySet()) {
          engine(backend.getKey()).delete(backend.getValue().number());
        }
        deleteTree(root.resolve(backup.backupId()));
        deleted.add(backup);
      }
    }
    return deleted;
  }

  /** The bytes the directory takes on disk (shared files counted once). */
  public long size() throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      long total = 0;
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        total += Files.size(file);
      }
      return total;
    }
  }

  private DatabaseBackups engine(String backendId) {
    return new DatabaseBackups(root.resolve("db").resolve(backendId));
  }

  /**
   * Copies the configuration directory but its archive of old versions; returns file to SHA-256.
   */
  private static Map<String, String> copyConfig(Path from, Path to) throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    List<Path> sources;
    try (Stream<Path> walk = Files.walk(from)) {
      sources =
          walk.filter(Files::isRegularFile)
              .filter(p -> !from.relativize(p).startsWith(ARCHIVED_CONFIGS))
              .filter(p -> !p.getFileName().toString().endsWith(".tmp"))
              .sorted()
              .toList();
    }
    for (Path source : sources) {
      String relative = from.relativize(source).toString().replace('\\', '/');
      Path target = to.resolve(relative);
      Files.createDirectories(target.getParent());
      Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
      files.put(relative, sha256(target));
    }
    return files;
  }

  private static String sha256(Path file) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static void deleteTree(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
