package io.rockds.replication;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How one member joins its group.
 *
 * @param serverId this member's ID, one of {@code peers}
 * @param peers every member of the group at its first start
 * @param directory where the Raft log and snapshots live (private to the instance)
 * @param writeTimeout how long a write waits for the group to commit it before it is refused as
 *     unavailable
 * @param electionTimeout the shortest time without a leader's heartbeat before a member stands for
 *     election (the longest is twice that)
 */
public record ReplicationSettings(
    String serverId,
    List<Peer> peers,
    Path directory,
    Duration writeTimeout,
    Duration electionTimeout) {
  public ReplicationSettings {
    peers = List.copyOf(peers);
    if (peers.stream().noneMatch(p -> p.id().equals(serverId))) {
      throw new IllegalArgumentException(
          "the replication server " + serverId + " is not among the group's servers " + peers);
    }
  }

  public Peer self() {
    return peers.stream().filter(p -> p.id().equals(serverId)).findFirst().orElseThrow();
  }
}
