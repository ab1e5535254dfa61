package io.rockds.server.replication;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.ReplicationConfig;
import io.rockds.layout.Instance;
import io.rockds.replication.GroupStatus;
import io.rockds.replication.Peer;
import io.rockds.replication.RecordApplier;
import io.rockds.replication.RecordPosition;
import io.rockds.replication.ReplicationNode;
import io.rockds.replication.ReplicationSettings;
import io.rockds.replication.ReplicationUnavailableException;
import io.rockds.server.Backends;
import io.rockds.server.WriteApplier;
import io.rockds.server.WriteOutcome;
import io.rockds.server.WritePath;
import io.rockds.server.WriteRecord;
import io.rockds.storage.LogPosition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
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
  private final Backends backends;
  private final ReplicatedSettings settings;
  private final Consumer<String> restart;
  private final Consumer<String> left;
  private volatile ReplicationNode node;

  /**
   * @param backends the backends the snapshots are checkpoints of
   * @param settings the shared settings, applied and checkpointed with the backends
   * @param restart asks for the server to be restarted, with the reason: a snapshot received from
   *     the leader is installed before the backends open
   * @param left hears why this server left its group for good: a group restored from a backup
   *     replaced it
   */
  public ReplicatedWrites(
      ReplicationConfig config,
      WriteApplier applier,
      Backends backends,
      ReplicatedSettings settings,
      Consumer<String> restart,
      Consumer<String> left) {
    this.config = config;
    this.applier = applier;
    this.backends = backends;
    this.settings = settings;
    this.restart = restart;
    this.left = left;
  }

  /** Where an instance keeps its Raft log and snapshots. */
  public static Path directory(Instance instance) {
    return instance.root().resolve("db").resolve("replication");
  }

  /**
   * Joins the group, keeping its log and snapshots in {@code directory}; replays the records this
   * server has not applied yet, after finishing what a crash interrupted ({@link
   * WriteApplier#finishInterrupted}). Call once the server's services are built: replay applies
   * writes.
   */
  public void start(Path directory) throws IOException {
    try {
      applier.finishInterrupted();
    } catch (LDAPException e) {
      throw new IOException(
          "cannot finish the referential integrity a crash interrupted: " + e.getMessage(), e);
    }
    List<Peer> peers = new ArrayList<>();
    for (String address : config.bootstrapServers()) {
      try {
        peers.add(peer(address));
      } catch (LDAPException e) {
        throw new IOException(e.getMessage(), e);
      }
    }
    node =
        ReplicationNode.start(
            new ReplicationSettings(
                config.address(),
                peers,
                directory,
                config.writeTimeout(),
                config.electionTimeout(),
                config.snapshotInterval(),
                config.logSegmentBytes(),
                config.joining()),
            this,
            left);
  }

  /**
   * Writes of entries submitted together share a log entry ({@link ReplicationNode#submit}); a
   * change of the shared settings has an entry of its own, as {@link ReplicatedSettings} keeps the
   * position of the last one it applied by log index.
   */
  @Override
  public WriteOutcome commit(WriteRecord record, WriteApplier local) throws LDAPException {
    byte[] encoded = record.encode();
    byte[] outcome =
        ask(
            n -> record.settings() ? n.submitAlone(encoded) : n.submit(encoded),
            "committed the write");
    return WriteOutcome.decode(outcome).orThrow();
  }

  @Override
  public boolean replicated() {
    return true;
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

  /** The running member; refused as unavailable before replication started or after it stopped. */
  private ReplicationNode running() throws LDAPException {
    ReplicationNode running = node;
    if (running == null) {
      throw new LDAPException(ResultCode.UNAVAILABLE, "replication is not started yet");
    }
    return running;
  }

  /** Asks the group; unavailable (52) when it cannot answer (not started, no majority). */
  private <T> T ask(Request<T> request, String doing) throws LDAPException {
    try {
      return request.to(running());
    } catch (ReplicationUnavailableException e) {
      throw new LDAPException(ResultCode.UNAVAILABLE, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LDAPException(
          ResultCode.UNAVAILABLE, "interrupted while the replication group " + doing);
    }
  }

  /**
   * Ratis' apply thread: one committed record, exactly once, in log order; an entry's write through
   * its backend (its change numbered with the record's number), a settings change through {@link
   * ReplicatedSettings}.
   */
  @Override
  public byte[] apply(RecordPosition position, byte[] encoded) {
    WriteOutcome outcome;
    try {
      WriteRecord record = WriteRecord.decode(encoded);
      outcome =
          record.settings()
              ? settings.apply(record, position.index(), applier)
              : applier.apply(
                  record,
                  new LogPosition(position.term(), position.index(), position.slot()),
                  position.number());
    } catch (WriteRecord.UnknownFormatException e) {
      // Written by a newer server: skipping it could lose a settings change for good.
      throw new IllegalStateException(e.getMessage() + ": upgrade this server", e);
    } catch (LDAPException e) {
      outcome = WriteOutcome.refused(e);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot record the settings change applied: " + e.getMessage(), e);
    }
    if (outcome.resultCode() == ResultCode.OTHER_INT_VALUE
        || outcome.resultCode() == ResultCode.UNAVAILABLE_INT_VALUE) {
      // Not a refusal every member reaches alike: this member's storage failed. Going on would
      // leave this server without the write for good; it stops applying instead and retries the
      // record from its log once restarted.
      throw new IllegalStateException(outcome.message());
    }
    return outcome.encode();
  }

  /**
   * On the leader, before a record is appended: a settings change this server's settings refuse now
   * (a definition the schema has, a property out of range) is answered with the refusal and takes
   * no place in the log; a record this server cannot read (a newer server's) is refused too. The
   * write of an entry is checked as it is applied.
   */
  @Override
  public byte[] refusal(byte[] encoded) {
    if (!WriteRecord.checkedBeforeAppend(encoded)) {
      return null; // the write of an entry: not even decoded here
    }
    try {
      applier.check(WriteRecord.decode(encoded));
      return null;
    } catch (LDAPException e) {
      if (e.getResultCode() == ResultCode.OTHER || e.getResultCode() == ResultCode.UNAVAILABLE) {
        return null; // this server's own trouble: the record is checked again as it is applied
      }
      return WriteOutcome.refused(e).encode();
    } catch (RuntimeException e) {
      LOG.warn("could not check a settings change before appending it: {}", e.toString());
      return null;
    }
  }

  @Override
  public void checkpoint(Path directory) throws IOException {
    BackendSnapshots.checkpoint(backends, directory);
    settings.checkpoint(directory);
  }

  /**
   * A backend's database cannot be swapped under the readers of a running server, nor the
   * configuration and schema under its services: when the leader's snapshot is ahead of a backend
   * or of the shared settings, the server restarts and installs it before they are read ({@link
   * BackendSnapshots#installBehind}, {@link ReplicatedSettings#installBehind}).
   */
  @Override
  public boolean install(Path snapshot) throws IOException {
    List<String> behind = new ArrayList<>(BackendSnapshots.behind(backends, snapshot));
    if (settings.behind(snapshot)) {
      behind.add("the shared settings");
    }
    if (behind.isEmpty()) {
      return true;
    }
    LOG.warn("{} behind the leader's snapshot: restarting to install it", behind);
    restart.accept("installing the replication snapshot received from the leader into " + behind);
    return false;
  }

  /** Takes a snapshot now; returns its log index. */
  public long takeSnapshot() throws LDAPException {
    try {
      return running().takeSnapshot();
    } catch (IOException e) {
      throw new LDAPException(ResultCode.OTHER, "the snapshot failed: " + e.getMessage(), e);
    }
  }

  /** Adds the server whose replication listener is at {@code address} (HOST:PORT) to the group. */
  public void addServer(String address) throws LDAPException {
    try {
      running().addServer(peer(address));
    } catch (IOException e) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, e.getMessage(), e);
    }
  }

  /** Removes the server whose replication listener is at {@code address} from the group. */
  public void removeServer(String address) throws LDAPException {
    try {
      running().removeServer(peer(address).id());
    } catch (IOException e) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, e.getMessage(), e);
    }
  }

  /** A member named by the address of its replication listener, as setup names them. */
  private static Peer peer(String address) throws LDAPException {
    int colon = address.lastIndexOf(':');
    try {
      if (colon > 0) {
        return new Peer(
            address, address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw new LDAPException(
        ResultCode.INVALID_ATTRIBUTE_SYNTAX,
        "a replication server must be given as HOST:PORT: " + address);
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
