package io.rockds.replication;

import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftConfigurationProto;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorageDirectory;
import org.apache.ratis.util.FileUtils;
import org.apache.ratis.util.ProtoUtils;

/**
 * A member's Raft storage on disk ({@link ReplicationSettings#directory()}): one directory named by
 * the group's ID holding the log ({@code current/}) and the snapshots ({@code sm/}).
 *
 * <p>A group formed by setup has the ID {@link #FIRST_GROUP}. A group started again from a backup
 * ({@link #seed}) has a new ID, which tells the group it replaced ({@link GroupGeneration}): the
 * members of the group before can neither send it their log nor vote in it (Ratis refuses a request
 * for a group it does not run), so a server that kept its data from before the restore can never
 * replay it over the restored data.
 */
public final class GroupStorage {
  /** The ID of a group formed by setup's bootstrap servers. */
  static final RaftGroupId FIRST_GROUP =
      RaftGroupId.valueOf(UUID.nameUUIDFromBytes("rockds".getBytes(StandardCharsets.UTF_8)));

  /** Ratis' file of the term and vote in {@code current/}, and of the last membership. */
  private static final String META = "raft-meta";

  private static final String META_CONF = "raft-meta.conf";

  private GroupStorage() {}

  /** The group whose storage {@code directory} holds, or null when it holds none yet. */
  static RaftGroupId stored(Path directory) throws IOException {
    List<UUID> groups = new ArrayList<>();
    if (Files.isDirectory(directory)) {
      try (Stream<Path> children = Files.list(directory)) {
        for (Path child : children.filter(Files::isDirectory).toList()) {
          try {
            groups.add(UUID.fromString(child.getFileName().toString()));
          } catch (IllegalArgumentException e) {
            // not a group's storage
          }
        }
      }
    }
    if (groups.size() > 1) {
      throw new IOException(
          directory
              + " holds the storage of "
              + groups.size()
              + " replication groups "
              + groups
              + ": a server is a member of one; delete the ones of groups it left");
    }
    return groups.isEmpty() ? null : RaftGroupId.valueOf(groups.get(0));
  }

  static Path groupDirectory(Path directory, RaftGroupId group) {
    return directory.resolve(group.getUuid().toString());
  }

  /**
   * The applier's checkpoint inside the newest snapshot the member holds in {@code directory}, or
   * null when it holds none.
   */
  static Path latestSnapshot(Path directory) throws IOException {
    RaftGroupId group = stored(directory);
    if (group == null) {
      return null;
    }
    return SnapshotStore.newestState(
        groupDirectory(directory, group).resolve(RaftStorageDirectory.STATE_MACHINE_DIR_NAME));
  }

  /** Writes the applier's state of a snapshot into a directory (absent yet). */
  @FunctionalInterface
  public interface StateWriter {
    void write(Path state) throws IOException;
  }

  /**
   * Replaces the Raft storage in {@code directory} (the log, snapshots and membership of the group
   * the member was in) with a new group's, holding nothing but a snapshot at log index {@code
   * index} whose state {@code state} writes: the member starting on it follows the new group's log
   * from {@code index + 1}, and sends the snapshot to the members that join. Its term is 0, below
   * any term of the new group, so that no member ever prefers the snapshot to a later entry. The
   * new group numbers its records ({@link RecordPosition#number}) above {@code lastNumber} and
   * above every number of the group it replaces ({@link GroupGeneration#numbersAbove}); returns the
   * number it numbers above.
   *
   * <p>The new storage is built beside the old one and swapped in last: a failure before leaves the
   * old one. The member forms the group with the bootstrap servers of its configuration.
   */
  public static long seed(Path directory, long index, long lastNumber, StateWriter state)
      throws IOException {
    RaftGroupId replaced = stored(directory);
    Path building = directory.resolveSibling(directory.getFileName() + ".new");
    FileUtils.deleteFully(building);
    RaftGroupId successor = GroupGeneration.successor(replaced == null ? FIRST_GROUP : replaced);
    long numbersAbove = Math.max(lastNumber, GroupGeneration.numbersAbove(successor));
    Path group = groupDirectory(building, successor);
    Path current = group.resolve(RaftStorageDirectory.CURRENT_DIR_NAME);
    Files.createDirectories(current);
    // Ratis formats (empties) a storage without its metadata file: this one says term 0, no vote.
    Properties meta = new Properties();
    meta.setProperty("term", "0");
    meta.setProperty("votedFor", "");
    try (Writer out = Files.newBufferedWriter(current.resolve(META), StandardCharsets.UTF_8)) {
      meta.store(out, "a new replication group, from a restored backup");
    }
    Path snapshots = group.resolve(RaftStorageDirectory.STATE_MACHINE_DIR_NAME);
    Path stateDirectory = SnapshotStore.stateDirectory(snapshots, TermIndex.valueOf(0, index));
    Files.createDirectories(stateDirectory.getParent());
    state.write(stateDirectory);
    RecordNumbers.write(stateDirectory.getParent(), numbersAbove);
    FileUtils.deleteFully(directory);
    Files.move(building, directory, StandardCopyOption.ATOMIC_MOVE);
    return numbersAbove;
  }

  /**
   * Deletes the Raft storage: the member keeps no log, snapshot or membership, and starts as a new
   * member (a joining one finds the group to join from its bootstrap servers).
   */
  public static void clear(Path directory) throws IOException {
    FileUtils.deleteFully(directory);
  }

  /**
   * The IDs (replication addresses) of the members of the group as the storage last recorded them
   * (Ratis' membership file, old and new members while it changed); none when it holds no group.
   */
  public static Set<String> lastKnownMembers(Path directory) throws IOException {
    Set<String> members = new LinkedHashSet<>();
    for (RaftPeer peer : lastKnownPeers(directory)) {
      members.add(RaftPeerIds.name(peer.getId()));
    }
    return members;
  }

  /** The members {@link #lastKnownMembers} names, with their addresses. */
  static List<RaftPeer> lastKnownPeers(Path directory) throws IOException {
    RaftGroupId group = stored(directory);
    if (group == null) {
      return List.of();
    }
    Path file =
        groupDirectory(directory, group)
            .resolve(RaftStorageDirectory.CURRENT_DIR_NAME)
            .resolve(META_CONF);
    if (!Files.exists(file)) {
      return List.of();
    }
    RaftConfigurationProto conf;
    try (InputStream in = Files.newInputStream(file)) {
      conf = LogEntryProto.parseFrom(in).getConfigurationEntry();
    }
    List<RaftPeer> peers = new ArrayList<>(ProtoUtils.toRaftPeers(conf.getPeersList()));
    peers.addAll(ProtoUtils.toRaftPeers(conf.getOldPeersList()));
    return peers;
  }
}
