package io.rockds.replication;

/**
 * A member of the replication group: its server ID and the host and port of its replication
 * listener.
 */
public record Peer(String id, String host, int port) {
  public Peer {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("a replication server needs an ID");
    }
    if (port <= 0 || port > 65535) {
      throw new IllegalArgumentException("replication port out of range: " + port);
    }
  }

  /** {@code host:port}, as setup's --bootstrapReplicationServer takes it. */
  public String address() {
    return host + ":" + port;
  }
}
