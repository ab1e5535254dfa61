package io.rockds.server.replication;

import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.BackendConfig;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.ReplicationConfig;
import io.rockds.config.ServerConfig;
import io.rockds.config.SharedConfig;
import io.rockds.layout.Instance;
import io.rockds.replication.GroupStorage;
import io.rockds.server.backup.BackupDirectory;
import io.rockds.server.backup.BackupManifest;
import io.rockds.server.schema.ServerSchema;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A replication group restored from the backup of one of its servers, every server stopped: the
 * server the backup is restored into starts a new group from it ({@link #newGroup}), the others are
 * emptied ({@link #resetMember}) and join that group, receiving the data as a snapshot.
 *
 * <p>The new group has a new ID and its log starts after the position of the restored data, so no
 * record of the log before the restore is ever applied again: not on the restored server (its log
 * is deleted), and not from a server that kept its old log (Ratis refuses its requests, which name
 * the group before).
 */
public final class GroupRestore {
  /** How long a member of the group is given to accept a connection before it counts as down. */
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

  private GroupRestore() {}

  /**
   * Restores {@code backup} into the stopped {@code instance} (the caller holds its lock), a server
   * set up for replication, as the content of a new replication group whose only member it is: its
   * backends' databases and the shared settings (schema added over LDAP, shared configuration) are
   * the backup's; its own settings (listeners, root users, replication ports) stay; its Raft
   * storage is replaced by the new group's, holding one snapshot of the restored data. Refused
   * while a server of its group runs.
   */
  public static void newGroup(
      BackupDirectory directory, BackupManifest backup, Instance instance, Consumer<String> log)
      throws IOException {
    ConfigStore store = load(instance.configFile());
    ReplicationConfig replication = replicationOf(store, instance);
    refuseWhileMembersRun(instance, replication);
    directory.verify(backup, log);
    ServerConfig config = serverConfig(store);
    // Changes made here after the backup keep their numbers: new ones are numbered above them
    // (and above those of the whole group before: GroupStorage.seed).
    long issued = BackendSnapshots.lastChangeNumber(instance, config.backends());
    directory.restoreDatabases(backup, instance, config, log);
    long lastChangeNumber =
        Math.max(issued, BackendSnapshots.lastChangeNumber(instance, config.backends()));

    Path backedUp = directory.configDirectory(backup);
    Map<String, Long> positions = BackendSnapshots.storedPositions(instance, config.backends());
    // The new group's log follows everything the backup holds.
    long index = Math.max(0, ReplicatedSettings.appliedIndex(backedUp));
    for (long position : positions.values()) {
      index = Math.max(index, position);
    }
    // This server forms the new group alone (its bootstrap servers count at its first start); the
    // others join it.
    put(store, withStart(replication, List.of(replication.address()), false));
    Path schemaDirectory = instance.configFile().getParent().relativize(instance.schemaDirectory());
    try {
      ReplicatedSettings.adopt(
          store,
          instance.schemaDirectory(),
          SharedConfig.sharedPart(load(backedUp.resolve(instance.configFile().getFileName()))),
          backedUp.resolve(schemaDirectory).resolve(ServerSchema.USER_FILE),
          index);
    } catch (LDAPException e) {
      throw new IOException("cannot read the shared configuration of the backup: " + e, e);
    }
    log.accept("Restored the shared settings of the backup; this server's own settings are kept");

    long start = index;
    long numbersAbove =
        GroupStorage.seed(
            ReplicatedWrites.directory(instance),
            start,
            lastChangeNumber,
            state -> {
              BackendSnapshots.copyClosed(instance, config.backends(), positions, state);
              ReplicatedSettings.write(store, instance.schemaDirectory(), state, start);
            });
    log.accept(
        "Started a new replication group of "
            + replication.address()
            + " alone, its log following index "
            + start
            + " and numbering changes above "
            + numbersAbove
            + " (above every number the group before gave)"
            + "; the log of the group before is deleted. Start this server, then empty each other"
            + " server (dsrepl reset-server), start it and add it (dsrepl add-server)");
  }

  /**
   * Empties the stopped server of a replication group in {@code instance} (the caller holds its
   * lock) so that it joins its group as a new member at its next start and receives the group's
   * data as a snapshot once added: its backends' databases, its Raft log and snapshots and the
   * position of its shared settings are deleted, and it is marked as joining. Its own settings
   * stay.
   */
  public static void resetMember(Instance instance, Consumer<String> log) throws IOException {
    ConfigStore store = load(instance.configFile());
    ReplicationConfig replication = replicationOf(store, instance);
    ServerConfig config = serverConfig(store);
    // Joining first: a start after a reset cut short never forms a group of its own.
    put(store, withStart(replication, replication.bootstrapServers(), true));
    try {
      store.save();
    } catch (ConfigException e) {
      throw new IOException("cannot save " + store.file() + ": " + e.getMessage(), e);
    }
    ReplicatedSettings.forgetApplied(store);
    GroupStorage.clear(ReplicatedWrites.directory(instance));
    log.accept("Deleted the replication log and snapshots");
    for (BackendConfig backend : config.backends()) {
      Path database = instance.resolve(backend.dbDirectory());
      if (Files.exists(database)) {
        BackendSnapshots.deleteTree(database);
        log.accept("Deleted the database of backend " + backend.id());
      }
    }
    log.accept(
        "This server joins its replication group at its next start; add it through a member"
            + " (dsrepl add-server --replicationServer "
            + replication.address()
            + ")");
  }

  private static void refuseWhileMembersRun(Instance instance, ReplicationConfig replication)
      throws IOException {
    Set<String> members =
        new LinkedHashSet<>(GroupStorage.lastKnownMembers(ReplicatedWrites.directory(instance)));
    members.addAll(replication.bootstrapServers());
    members.remove(replication.address());
    for (String member : members) {
      if (answers(member)) {
        throw new IOException(
            "the server "
                + member
                + " of this server's replication group is running: stop every server of the"
                + " group first (those still running would go on serving, and taking writes on,"
                + " the data from before the restore)");
      }
    }
  }

  /** Whether something accepts connections at a replication address (HOST:PORT). */
  private static boolean answers(String address) {
    int colon = address.lastIndexOf(':');
    try (Socket socket = new Socket()) {
      socket.connect(
          new InetSocketAddress(
              address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))),
          (int) PROBE_TIMEOUT.toMillis());
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The replication settings with another first start: its bootstrap servers, joining or not. */
  private static ReplicationConfig withStart(
      ReplicationConfig replication, List<String> bootstrapServers, boolean joining) {
    return new ReplicationConfig(
        replication.serverId(),
        replication.host(),
        replication.port(),
        bootstrapServers,
        replication.writeTimeout(),
        replication.electionTimeout(),
        replication.snapshotInterval(),
        replication.logSegmentBytes(),
        joining);
  }

  private static ReplicationConfig replicationOf(ConfigStore store, Instance instance)
      throws IOException {
    try {
      ReplicationConfig replication = ReplicationConfig.read(store);
      if (replication == null) {
        throw new IOException(
            instance.root()
                + " is not a server of a replication group (no "
                + ReplicationConfig.DN
                + "): set it up with --serverId, --replicationPort and"
                + " --bootstrapReplicationServer first");
      }
      return replication;
    } catch (ConfigException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private static ConfigStore load(Path file) throws IOException {
    try {
      return ConfigStore.load(file);
    } catch (ConfigException e) {
      throw new IOException(file + " does not load: " + e.getMessage(), e);
    }
  }

  private static ServerConfig serverConfig(ConfigStore store) throws IOException {
    try {
      return ServerConfig.read(store);
    } catch (ConfigException e) {
      throw new IOException(store.file() + ": " + e.getMessage(), e);
    }
  }

  private static void put(ConfigStore store, ReplicationConfig replication) throws IOException {
    try {
      store.put(replication.toEntry());
    } catch (ConfigException e) {
      throw new IOException(store.file() + ": " + e.getMessage(), e);
    }
  }
}
