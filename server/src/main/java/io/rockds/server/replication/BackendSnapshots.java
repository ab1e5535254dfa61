package io.rockds.server.replication;

import io.rockds.config.BackendConfig;
import io.rockds.layout.Instance;
import io.rockds.replication.ReplicationNode;
import io.rockds.server.Backends;
import io.rockds.storage.Backend;
import io.rockds.storage.Changelog;
import io.rockds.storage.LogPosition;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.rocksdb.Checkpoint;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replication snapshot of the backends: one RocksDB checkpoint per backend ({@code <backend
 * id>/}) and the log position each had applied ({@code positions.properties}). A server whose
 * backend is behind the newest snapshot it holds (it received the leader's, or its database was
 * lost) has the backend's database replaced by the checkpoint before the backends open: the old
 * directory is moved aside, the checkpoint takes its place, then the old one is deleted, so a crash
 * at any step leaves either the old database or none, and the next start installs again.
 */
public final class BackendSnapshots {
  private static final Logger LOG = LoggerFactory.getLogger(BackendSnapshots.class);
  private static final String POSITIONS = "positions.properties";

  private BackendSnapshots() {}

  /**
   * Writes a checkpoint of every backend into {@code directory} (absent yet). No replicated write
   * applies meanwhile: the caller is the replication apply thread.
   */
  public static void checkpoint(Backends backends, Path directory) throws IOException {
    Files.createDirectories(directory);
    Properties positions = new Properties();
    for (Backend backend : backends.all()) {
      try (Checkpoint checkpoint = Checkpoint.create(backend.rocksDb())) {
        positions.setProperty(backend.id(), Long.toString(backend.appliedPosition().index()));
        checkpoint.createCheckpoint(directory.resolve(backend.id()).toString());
      } catch (RocksDBException | com.unboundid.ldap.sdk.LDAPException e) {
        throw new IOException(
            "cannot checkpoint backend " + backend.id() + ": " + e.getMessage(), e);
      }
    }
    writePositions(directory, positions);
  }

  /**
   * The log index stored in the closed database of each enabled backend of {@code backends} that
   * has one ({@link LogPosition#NONE}'s when it never applied a replicated write).
   */
  public static Map<String, Long> storedPositions(Instance instance, List<BackendConfig> backends)
      throws IOException {
    Map<String, Long> positions = new LinkedHashMap<>();
    for (BackendConfig config : backends) {
      Path database = instance.resolve(config.dbDirectory());
      if (config.enabled() && Files.exists(database)) {
        positions.put(config.id(), LogPosition.storedIn(database).index());
      }
    }
    return positions;
  }

  /**
   * The largest change number in the changelogs of the closed databases of {@code backends}, 0 when
   * they hold none.
   */
  public static long lastChangeNumber(Instance instance, List<BackendConfig> backends)
      throws IOException {
    long last = 0;
    for (BackendConfig config : backends) {
      Path database = instance.resolve(config.dbDirectory());
      if (config.enabled()) {
        last = Math.max(last, Changelog.lastStoredIn(database));
      }
    }
    return last;
  }

  /**
   * Writes into {@code directory} (absent yet) a snapshot of the closed databases whose {@link
   * #storedPositions} are given: each database directory copied as a checkpoint (table files
   * hard-linked). A position below 0 is written as 0, so that a member whose backend holds no
   * database yet (-1 too) installs this one.
   */
  public static void copyClosed(
      Instance instance, List<BackendConfig> backends, Map<String, Long> positions, Path directory)
      throws IOException {
    Files.createDirectories(directory);
    Properties written = new Properties();
    for (BackendConfig config : backends) {
      Long index = positions.get(config.id());
      if (index != null) {
        copy(instance.resolve(config.dbDirectory()), directory.resolve(config.id()));
        written.setProperty(config.id(), Long.toString(Math.max(index, 0)));
      }
    }
    writePositions(directory, written);
  }

  private static void writePositions(Path directory, Properties positions) throws IOException {
    try (OutputStream out = Files.newOutputStream(directory.resolve(POSITIONS))) {
      positions.store(out, "log index each backend had applied");
    }
  }

  /** The IDs of the open backends whose applied position is behind the snapshot's. */
  static List<String> behind(Backends backends, Path snapshot) throws IOException {
    Properties positions = positions(snapshot);
    List<String> behind = new ArrayList<>();
    for (Backend backend : backends.all()) {
      try {
        if (backend.appliedPosition().index() < index(positions, backend.id())) {
          behind.add(backend.id());
        }
      } catch (com.unboundid.ldap.sdk.LDAPException e) {
        throw new IOException(
            "cannot read the position of backend " + backend.id() + ": " + e.getMessage(), e);
      }
    }
    return behind;
  }

  /**
   * Before the backends open: replaces the database of every enabled backend that is behind the
   * newest snapshot in {@code replicationDirectory} with the snapshot's checkpoint.
   */
  public static void installBehind(
      Instance instance, List<BackendConfig> backends, Path replicationDirectory)
      throws IOException {
    Path snapshot = ReplicationNode.latestSnapshot(replicationDirectory);
    if (snapshot == null) {
      return;
    }
    Properties positions = positions(snapshot);
    for (BackendConfig config : backends) {
      Path checkpoint = snapshot.resolve(config.id());
      long wanted = index(positions, config.id());
      Path database = instance.resolve(config.dbDirectory());
      if (!config.enabled() || !Files.isDirectory(checkpoint)) {
        continue;
      }
      if (LogPosition.storedIn(database).index() < wanted) {
        LOG.info(
            "installing the replication snapshot {} into backend {} (up to log index {})",
            snapshot.getParent().getFileName(),
            config.id(),
            wanted);
        replace(database, checkpoint);
      }
    }
  }

  private static Properties positions(Path snapshot) throws IOException {
    Properties positions = new Properties();
    try (InputStream in = Files.newInputStream(snapshot.resolve(POSITIONS))) {
      positions.load(in);
    }
    return positions;
  }

  private static long index(Properties positions, String backend) {
    String value = positions.getProperty(backend);
    return value == null ? LogPosition.NONE.index() : Long.parseLong(value.trim());
  }

  private static void replace(Path database, Path checkpoint) throws IOException {
    Path installing = database.resolveSibling(database.getFileName() + ".installing");
    Path replaced = database.resolveSibling(database.getFileName() + ".replaced");
    deleteTree(installing);
    copy(checkpoint, installing);
    deleteTree(replaced);
    if (Files.exists(database)) {
      Files.move(database, replaced, StandardCopyOption.ATOMIC_MOVE);
    }
    Files.move(installing, database, StandardCopyOption.ATOMIC_MOVE);
    deleteTree(replaced);
  }

  /**
   * Copies a checkpoint: table files (never changed once written) as hard links where possible, the
   * others (MANIFEST, CURRENT, OPTIONS, WAL, which the database writes on) as synced copies, so the
   * snapshot stays intact for the next member that needs it.
   */
  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (name.endsWith(".md5")) {
          continue; // the digest Ratis kept of a file it received: no part of the database
        }
        Path target = to.resolve(name);
        if (name.endsWith(".sst")) {
          try {
            Files.createLink(target, file);
            continue;
          } catch (IOException | UnsupportedOperationException e) {
            // another file system: copy it
          }
        }
        Files.copy(file, target);
        try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
          channel.force(true);
        }
      }
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
