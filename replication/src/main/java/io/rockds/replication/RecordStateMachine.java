package io.rockds.replication;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
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
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ratis state machine: hands each committed record to the {@link RecordApplier}, in log order,
 * on Ratis' single apply thread; the records of an entry holding several ({@link RecordBatch}) one
 * after another, each with its own position and answer. Which records were applied before a restart
 * is the applier's business: it stores its position with its data and skips a replayed record.
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
  private final RecordNumbers numbers = new RecordNumbers();
  private final AtomicLong entriesApplied = new AtomicLong();
  private final AtomicLong recordsApplied = new AtomicLong();

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
      numbers.resume(snapshots.stateOf(latest).getParent());
    }
    getLifeCycle().transition(LifeCycle.State.RUNNING);
  }

  @Override
  public SnapshotStore getStateMachineStorage() {
    return snapshots;
  }

  /**
   * On the leader, before the entry is appended: a record the applier refuses now is answered with
   * its refusal ({@link RefusedRecord}) and never enters the log; so is a batch holding one (its
   * submitter then sends each of its records alone, for an answer of its own), or a batch of a
   * format this server does not know.
   */
  @Override
  public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
    TransactionContext transaction = super.startTransaction(request);
    List<byte[]> records;
    try {
      records = RecordBatch.decode(request.getMessage().getContent().toByteArray());
    } catch (IllegalStateException e) {
      transaction.setException(new StateMachineException(e.getMessage()));
      return transaction;
    }
    for (byte[] record : records) {
      byte[] refusal = applier.refusal(record);
      if (refusal != null) {
        transaction.setException(new RefusedRecord(refusal));
        break;
      }
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
    byte[] data = entry.getStateMachineLogEntry().getLogData().toByteArray();
    List<byte[]> records;
    try {
      records = RecordBatch.decode(data);
    } catch (IllegalStateException e) {
      // Written by a newer server: skipping it would lose its records for good.
      stop("entry " + entry.getIndex() + ": " + e.getMessage() + ": upgrade this server");
      return CompletableFuture.failedFuture(new StateMachineException(stopped));
    }
    long first = numbers.firstOf(entry.getIndex());
    List<byte[]> results = new ArrayList<>(records.size());
    for (int slot = 0; slot < records.size(); slot++) {
      RecordPosition position =
          new RecordPosition(entry.getTerm(), entry.getIndex(), slot, first + slot);
      try {
        results.add(applier.apply(position, records.get(slot)));
      } catch (RuntimeException e) {
        stop(
            "applying record "
                + entry.getIndex()
                + (records.size() > 1 ? " (" + (slot + 1) + " of " + records.size() + ")" : "")
                + " failed on this server: "
                + e.getMessage());
        return CompletableFuture.failedFuture(new StateMachineException(stopped));
      }
    }
    numbers.applied(first, records.size());
    updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
    appliedIndex.advance(entry.getIndex());
    entriesApplied.incrementAndGet();
    recordsApplied.addAndGet(records.size());
    byte[] reply = RecordBatch.isBatch(data) ? RecordBatch.encode(results) : results.get(0);
    return CompletableFuture.completedFuture(
        Message.valueOf(UnsafeByteOperations.unsafeWrap(reply)));
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
    Path state = snapshots.begin(last);
    applier.checkpoint(state);
    RecordNumbers.write(state.getParent(), numbers.last());
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
      numbers.resume(state.getParent());
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

  /** The log entries holding records applied since this member started. */
  long entriesApplied() {
    return entriesApplied.get();
  }

  /** The records those entries held. */
  long recordsApplied() {
    return recordsApplied.get();
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
