package io.rockds.replication;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How one member joins its group.
 *
 * @param serverId this member's ID, one of {@code peers}
 * @param peers every member of the group at its first start (later the group is the one its log and
 *     snapshots record, as membership changes left it)
 * @param directory where the Raft log and snapshots live (private to the instance)
 * @param writeTimeout how long a write waits for the group to commit it before it is refused as
 *     unavailable
 * @param electionTimeout the shortest time without a leader's heartbeat before a member stands for
 *     election (the longest is twice that)
 * @param snapshotInterval a snapshot is taken every this many log entries, and the log is purged
 *     behind it
 * @param logSegmentBytes the size of a log segment file; the log is purged a whole segment at a
 *     time
 * @param joining whether this member joins a group that runs already: at its first start it knows
 *     no members and waits for the leader to add it ({@link ReplicationNode#addServer}), instead of
 *     forming a group with {@code peers}
 */
public record ReplicationSettings(
    String serverId,
    List<Peer> peers,
    Path directory,
    Duration writeTimeout,
    Duration electionTimeout,
    long snapshotInterval,
    long logSegmentBytes,
    boolean joining) {
  public static final long DEFAULT_SNAPSHOT_INTERVAL = 100_000;
  public static final long DEFAULT_LOG_SEGMENT_BYTES = 32L << 20;

  public ReplicationSettings {
    peers = List.copyOf(peers);
    if (peers.stream().noneMatch(p -> p.id().equals(serverId))) {
      throw new IllegalArgumentException(
          "the replication server " + serverId + " is not among the group's servers " + peers);
    }
    if (snapshotInterval <= 0 || logSegmentBytes <= 0) {
      throw new IllegalArgumentException(
          "the snapshot interval and the log segment size must be positive");
    }
  }

  /** Settings of a founding member, with the default snapshot interval and log segment size. */
  public ReplicationSettings(
      String serverId,
      List<Peer> peers,
      Path directory,
      Duration writeTimeout,
      Duration electionTimeout) {
    this(
        serverId,
        peers,
        directory,
        writeTimeout,
        electionTimeout,
        DEFAULT_SNAPSHOT_INTERVAL,
        DEFAULT_LOG_SEGMENT_BYTES,
        false);
  }

  public Peer self() {
    return peers.stream().filter(p -> p.id().equals(serverId)).findFirst().orElseThrow();
  }
}
