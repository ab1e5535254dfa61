package io.rockds.server.replication;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.ReplicationConfig;
import io.rockds.replication.GroupStatus;
import io.rockds.replication.Peer;
import io.rockds.replication.RecordApplier;
import io.rockds.replication.ReplicationNode;
import io.rockds.replication.ReplicationSettings;
import io.rockds.replication.ReplicationUnavailableException;
import io.rockds.server.WriteApplier;
import io.rockds.server.WriteOutcome;
import io.rockds.server.WritePath;
import io.rockds.server.WriteRecord;
import io.rockds.storage.LogPosition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of a replicated server: a prepared write is submitted to the group (from any
 * member; Ratis routes it to the leader), committed by a majority, applied by every member in log
 * order, and answered here once this member applied it. A member that cannot reach a majority
 * answers unavailable (52) after the write timeout; reads go on from its local copy.
 */
public final class ReplicatedWrites implements WritePath, RecordApplier, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicatedWrites.class);

  private final ReplicationConfig config;
  private final WriteApplier applier;
  private volatile ReplicationNode node;

  public ReplicatedWrites(ReplicationConfig config, WriteApplier applier) {
    this.config = config;
    this.applier = applier;
  }

  /**
   * Joins the group, keeping its log and snapshots in {@code directory}; replays the records this
   * server has not applied yet. Call once the server's services are built: replay applies writes.
   */
  public void start(Path directory) throws IOException {
    List<Peer> peers = new ArrayList<>();
    for (String address : config.bootstrapServers()) {
      int colon = address.lastIndexOf(':');
      if (colon <= 0) {
        throw new IOException("a replication server must be given as HOST:PORT: " + address);
      }
      try {
        peers.add(
            new Peer(
                address,
                address.substring(0, colon),
                Integer.parseInt(address.substring(colon + 1))));
      } catch (IllegalArgumentException e) {
        throw new IOException("a replication server must be given as HOST:PORT: " + address, e);
      }
    }
    node =
        ReplicationNode.start(
            new ReplicationSettings(
                config.address(),
                peers,
                directory,
                config.writeTimeout(),
                config.electionTimeout()),
            this);
  }

  @Override
  public WriteOutcome commit(WriteRecord record, WriteApplier local) throws LDAPException {
    byte[] outcome = ask(n -> n.submit(record.encode()), "committed the write");
    return WriteOutcome.decode(outcome).orThrow();
  }

  /**
   * Waits for the read index: the commit index the leader confirms with a majority, applied here.
   */
  @Override
  public void awaitCommitted() throws LDAPException {
    ask(
        n -> {
          n.awaitCommitted();
          return null;
        },
        "confirmed its commit index");
  }

  /** What the group is asked through this member. */
  @FunctionalInterface
  private interface Request<T> {
    T to(ReplicationNode node) throws ReplicationUnavailableException, InterruptedException;
  }

  /** Asks the group; unavailable (52) when it cannot answer (not started, no majority). */
  private <T> T ask(Request<T> request, String doing) throws LDAPException {
    ReplicationNode running = node;
    if (running == null) {
      throw new LDAPException(ResultCode.UNAVAILABLE, "replication is not started yet");
    }
    try {
      return request.to(running);
    } catch (ReplicationUnavailableException e) {
      throw new LDAPException(ResultCode.UNAVAILABLE, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LDAPException(
          ResultCode.UNAVAILABLE, "interrupted while the replication group " + doing);
    }
  }

  /** Ratis' apply thread: one committed record, exactly once, in log order. */
  @Override
  public byte[] apply(long term, long index, byte[] encoded) {
    WriteOutcome outcome;
    try {
      outcome = applier.apply(WriteRecord.decode(encoded), new LogPosition(term, index));
    } catch (LDAPException e) {
      outcome = WriteOutcome.refused(e);
    }
    if (outcome.resultCode() == ResultCode.OTHER_INT_VALUE
        || outcome.resultCode() == ResultCode.UNAVAILABLE_INT_VALUE) {
      // Not a refusal every member reaches alike: this member's storage failed.
      LOG.error(
          "replicated write {} could not be applied on this server: {}", index, outcome.message());
    }
    return outcome.encode();
  }

  /** The group as this member sees it; null before it started. */
  public GroupStatus status() throws IOException {
    ReplicationNode running = node;
    return running == null ? null : running.status();
  }

  /** This server's name, as setup's --serverId gave it. */
  public String serverId() {
    return config.serverId();
  }

  @Override
  public void close() throws IOException {
    ReplicationNode running = node;
    node = null;
    if (running != null) {
      running.close();
    }
  }
}
