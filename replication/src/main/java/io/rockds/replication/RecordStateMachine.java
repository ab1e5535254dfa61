package io.rockds.replication;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ratis state machine: hands each committed record to the {@link RecordApplier}, in log order,
 * on Ratis' single apply thread. Which records were applied before a restart is the applier's
 * business: it stores its position with its data and skips a replayed record.
 *
 * <p>Snapshots are the applier's checkpoints ({@link SnapshotStore}); Ratis takes one every {@code
 * snapshotInterval} entries and purges the log behind it, and sends the newest to a follower whose
 * next entries were purged. Once this member stopped applying (its storage failed, or it received a
 * snapshot it can only install at the next start) every later record fails here and stays in the
 * log, to be applied after the restart: a member never skips a record it could not apply.
 */
final class RecordStateMachine extends BaseStateMachine {
  private static final Logger LOG = LoggerFactory.getLogger(RecordStateMachine.class);

  private final RecordApplier applier;
  private final AppliedIndex appliedIndex;
  private final SnapshotStore snapshots = new SnapshotStore();

  /** Why this member stopped applying, or null while it applies. */
  private volatile String stopped;

  RecordStateMachine(RecordApplier applier, AppliedIndex appliedIndex) {
    this.applier = applier;
    this.appliedIndex = appliedIndex;
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage storage)
      throws IOException {
    super.initialize(server, groupId, storage);
    getLifeCycle().transition(LifeCycle.State.STARTING);
    snapshots.init(storage);
    FileListSnapshotInfo latest = snapshots.getLatestSnapshot();
    if (latest != null) {
      // The applier's state includes the snapshot: the server installed it before starting.
      setLastAppliedTermIndex(latest.getTermIndex());
      appliedIndex.advance(latest.getIndex());
    }
    getLifeCycle().transition(LifeCycle.State.RUNNING);
  }

  @Override
  public SnapshotStore getStateMachineStorage() {
    return snapshots;
  }

  /**
   * On the leader, before the record is appended: one the applier refuses now is answered with its
   * refusal ({@link RefusedRecord}) and never enters the log.
   */
  @Override
  public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
    TransactionContext transaction = super.startTransaction(request);
    byte[] refusal = applier.refusal(request.getMessage().getContent().toByteArray());
    if (refusal != null) {
      transaction.setException(new RefusedRecord(refusal));
    }
    return transaction;
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto entry = trx.getLogEntry();
    String reason = stopped;
    if (reason != null) {
      return CompletableFuture.failedFuture(
          new StateMachineException("record " + entry.getIndex() + " not applied: " + reason));
    }
    ByteString data = entry.getStateMachineLogEntry().getLogData();
    byte[] result;
    try {
      result = applier.apply(entry.getTerm(), entry.getIndex(), data.toByteArray());
    } catch (RuntimeException e) {
      stop("applying record " + entry.getIndex() + " failed on this server: " + e.getMessage());
      return CompletableFuture.failedFuture(new StateMachineException(stopped));
    }
    updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
    appliedIndex.advance(entry.getIndex());
    return CompletableFuture.completedFuture(
        Message.valueOf(UnsafeByteOperations.unsafeWrap(result)));
  }

  /** A read-only request only waits for the read index (linearizable reads): it reads nothing. */
  @Override
  public CompletableFuture<Message> query(Message request) {
    return CompletableFuture.completedFuture(Message.EMPTY);
  }

  /** Log entries that are no records (a new leader's first entry, configuration changes). */
  @Override
  public void notifyTermIndexUpdated(long term, long index) {
    if (stopped == null) {
      super.notifyTermIndexUpdated(term, index);
      appliedIndex.advance(index);
    }
  }

  /** The applier's checkpoint as of the last applied entry, on Ratis' apply thread. */
  @Override
  public long takeSnapshot() throws IOException {
    TermIndex last = getLastAppliedTermIndex();
    FileListSnapshotInfo latest = snapshots.getLatestSnapshot();
    if (last == null || last.getIndex() < 0) {
      return RaftLog.INVALID_LOG_INDEX;
    }
    if (latest != null && latest.getIndex() >= last.getIndex()) {
      return latest.getIndex();
    }
    applier.checkpoint(snapshots.begin(last));
    snapshots.publish(last);
    LOG.info("snapshot taken at {}", last);
    return last.getIndex();
  }

  /** The leader's snapshot arrived (Ratis paused this state machine while it did). */
  @Override
  public synchronized void reinitialize() throws IOException {
    FileListSnapshotInfo received = snapshots.reload();
    if (received == null) {
      throw new IOException("no snapshot to load in " + snapshots.getSnapshotDir());
    }
    Path state = snapshots.stateOf(received);
    if (applier.install(state)) {
      setLastAppliedTermIndex(received.getTermIndex());
      appliedIndex.advance(received.getIndex());
      LOG.info("installed the leader's snapshot at {}", received.getTermIndex());
    } else {
      stop(
          "the leader's snapshot at index "
              + received.getIndex()
              + " is installed at the next start of this server");
    }
    getLifeCycle().transition(LifeCycle.State.STARTING);
    getLifeCycle().transition(LifeCycle.State.RUNNING);
  }

  /** Ratis pauses the state machine before writing a received snapshot (once per chunk). */
  @Override
  public synchronized void pause() {
    if (getLifeCycle().getCurrentState() == LifeCycle.State.RUNNING) {
      getLifeCycle().transition(LifeCycle.State.PAUSING);
      getLifeCycle().transition(LifeCycle.State.PAUSED);
    }
  }

  private void stop(String reason) {
    if (stopped == null) {
      stopped = reason;
      LOG.error("this server stopped applying replicated records: {}", reason);
    }
  }

  /** Why this member stopped applying records, or null while it applies them. */
  String stopped() {
    return stopped;
  }

  private final CompletableFuture<Void> closed = new CompletableFuture<>();

  /** Ratis closes the state machine once its apply thread ended, as the Raft server closes. */
  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      closed.complete(null);
    }
  }

  /** Completes once no record is applied any more: the Raft server closed its state machine. */
  CompletableFuture<Void> closed() {
    return closed;
  }
}
