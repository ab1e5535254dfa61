package io.rockds.server.replication;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldif.LDIFException;
import com.unboundid.ldif.LDIFReader;
import com.unboundid.ldif.LDIFWriter;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.ServerConfig;
import io.rockds.config.SharedConfig;
import io.rockds.replication.ReplicationNode;
import io.rockds.server.WriteApplier;
import io.rockds.server.WriteOutcome;
import io.rockds.server.WriteRecord;
import io.rockds.server.schema.ServerSchema;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings every member shares (the schema added over LDAP, the shared part of the
 * configuration, see {@link SharedConfig}) as replicated state. They live in files, not in a
 * backend's batch, so the log position of the last settings record applied is kept beside them
 * ({@value #POSITION}, written once the files are), and a replay skips the records at or before it.
 * A snapshot carries them in {@value #DIRECTORY}/: a member behind it (it received the leader's
 * snapshot, or joins) installs them before its configuration and schema are read at start.
 *
 * <p>A crash between a change's files and its position replays that one record: it then finds its
 * change made and is refused (the entry exists, the value is there) or makes it again, leaving the
 * same settings.
 */
public final class ReplicatedSettings {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicatedSettings.class);

  /** The folder of a snapshot holding the settings. */
  static final String DIRECTORY = "settings";

  /** The file, in the instance's config folder and in a snapshot, of the position applied. */
  static final String POSITION = "replicated-settings-position";

  private static final String CONFIG = "shared-config.ldif";

  private final ConfigStore store;
  private final Path schemaDirectory;
  private final Path positionFile;
  private long appliedIndex;

  /**
   * @param store the server's configuration, which cn=config changes in place
   * @param schemaDirectory where {@value ServerSchema#USER_FILE} is
   */
  public ReplicatedSettings(ConfigStore store, Path schemaDirectory) throws IOException {
    this.store = store;
    this.schemaDirectory = schemaDirectory;
    this.positionFile = positionFile(store);
    this.appliedIndex = readIndex(positionFile);
  }

  private static Path positionFile(ConfigStore store) {
    return store.file().resolveSibling(POSITION);
  }

  /**
   * Applies the settings record committed at {@code index}, exactly once; a failure of this server
   * alone ({@code other}, {@code unavailable}) leaves the position, so that the record is applied
   * again after a restart.
   */
  synchronized WriteOutcome apply(WriteRecord record, long index, WriteApplier applier)
      throws IOException {
    if (index <= appliedIndex) {
      return WriteOutcome.applied(null);
    }
    WriteOutcome outcome = applier.apply(record);
    if (outcome.resultCode() != ResultCode.OTHER_INT_VALUE
        && outcome.resultCode() != ResultCode.UNAVAILABLE_INT_VALUE) {
      writeIndex(positionFile, index);
      appliedIndex = index;
    }
    return outcome;
  }

  /** Writes the settings into {@code snapshot}'s {@value #DIRECTORY}/, on the apply thread. */
  synchronized void checkpoint(Path snapshot) throws IOException {
    write(store, schemaDirectory, snapshot, appliedIndex);
  }

  /**
   * Writes the shared part of {@code store} and the schema added over LDAP into {@code snapshot}'s
   * {@value #DIRECTORY}/, as applied up to log index {@code index}.
   */
  public static void write(ConfigStore store, Path schemaDirectory, Path snapshot, long index)
      throws IOException {
    Path directory = snapshot.resolve(DIRECTORY);
    Files.createDirectories(directory);
    try (LDIFWriter writer = new LDIFWriter(directory.resolve(CONFIG).toFile())) {
      for (Entry entry : SharedConfig.sharedPart(store)) {
        writer.writeEntry(entry);
      }
    } catch (LDAPException e) {
      throw new IOException("cannot copy the shared configuration: " + e.getMessage(), e);
    }
    Path schema = schemaDirectory.resolve(ServerSchema.USER_FILE);
    if (Files.exists(schema)) {
      Files.copy(schema, directory.resolve(ServerSchema.USER_FILE));
    }
    writeIndex(directory.resolve(POSITION), index);
  }

  /**
   * Forgets which settings records the configuration of {@code store} applied: the server then
   * takes the shared settings of the first snapshot it installs.
   */
  public static void forgetApplied(ConfigStore store) throws IOException {
    Files.deleteIfExists(positionFile(store));
  }

  /**
   * The log index of the last settings record applied to the configuration in {@code
   * configDirectory}; -1 when none was.
   */
  public static long appliedIndex(Path configDirectory) throws IOException {
    return readIndex(configDirectory.resolve(POSITION));
  }

  /** Whether {@code snapshot} holds settings newer than this server applied. */
  synchronized boolean behind(Path snapshot) throws IOException {
    return appliedIndex < snapshotIndex(snapshot);
  }

  /**
   * At start, before the configuration and the schema are read: when the newest snapshot in {@code
   * replicationDirectory} holds settings newer than {@code store}'s, replaces the shared part of
   * {@code store} (saved) and the schema added over LDAP with the snapshot's, then records its
   * position (last, so that a crash before installs again).
   */
  public static void installBehind(
      ConfigStore store, Path schemaDirectory, Path replicationDirectory) throws IOException {
    Path snapshot = ReplicationNode.latestSnapshot(replicationDirectory);
    if (snapshot == null) {
      return;
    }
    long wanted = snapshotIndex(snapshot);
    Path positionFile = positionFile(store);
    if (readIndex(positionFile) >= wanted) {
      return;
    }
    LOG.info(
        "installing the shared settings of the replication snapshot {} (up to log index {})",
        snapshot.getParent().getFileName(),
        wanted);
    Path directory = snapshot.resolve(DIRECTORY);
    List<Entry> shared;
    try {
      shared = readEntries(directory.resolve(CONFIG));
    } catch (LDAPException e) {
      throw new IOException("the shared configuration of the snapshot does not read: " + e, e);
    }
    adopt(store, schemaDirectory, shared, directory.resolve(ServerSchema.USER_FILE), wanted);
  }

  /**
   * Replaces the shared part of {@code store} (saved) with {@code shared} and the schema added over
   * LDAP with {@code userSchema} (none when absent), keeping the server's own settings; then
   * records them as applied up to log index {@code index} (last, so that a crash before does it
   * again).
   */
  public static void adopt(
      ConfigStore store, Path schemaDirectory, List<Entry> shared, Path userSchema, long index)
      throws IOException {
    try {
      ConfigStore candidate = store.copy();
      SharedConfig.replaceSharedPart(candidate, shared);
      ServerConfig.read(candidate);
      candidate.save();
      store.replaceWith(candidate);
    } catch (ConfigException | LDAPException e) {
      throw new IOException("the shared configuration does not apply: " + e.getMessage(), e);
    }
    Path target = schemaDirectory.resolve(ServerSchema.USER_FILE);
    if (Files.exists(userSchema)) {
      Files.createDirectories(schemaDirectory);
      Path temp = Files.createTempFile(schemaDirectory, ServerSchema.USER_FILE, ".tmp");
      Files.copy(userSchema, temp, StandardCopyOption.REPLACE_EXISTING);
      force(temp);
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } else {
      Files.deleteIfExists(target);
    }
    writeIndex(positionFile(store), index);
  }

  /** The position of the settings in {@code snapshot}; none in a snapshot without them. */
  private static long snapshotIndex(Path snapshot) throws IOException {
    return readIndex(snapshot.resolve(DIRECTORY).resolve(POSITION));
  }

  private static List<Entry> readEntries(Path file) throws IOException, LDAPException {
    List<Entry> entries = new ArrayList<>();
    try (LDIFReader reader = new LDIFReader(file.toFile())) {
      for (Entry e = reader.readEntry(); e != null; e = reader.readEntry()) {
        entries.add(e);
      }
    } catch (LDIFException e) {
      throw new IOException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return entries;
  }

  private static long readIndex(Path file) throws IOException {
    if (!Files.exists(file)) {
      return -1;
    }
    String text = Files.readString(file, StandardCharsets.UTF_8).strip();
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IOException(file + " holds no log index: \"" + text + "\"", e);
    }
  }

  /** Replaces {@code file} with {@code index}, synced, atomically. */
  private static void writeIndex(Path file, long index) throws IOException {
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temp, index + "\n", StandardCharsets.UTF_8);
    force(temp);
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void force(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
  }
}
