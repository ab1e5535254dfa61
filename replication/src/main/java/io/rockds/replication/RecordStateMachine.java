package io.rockds.replication;

import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * The Ratis state machine: hands each committed record to the {@link RecordApplier}, in log order,
 * on Ratis' single apply thread. Which records were applied before a restart is the applier's
 * business: it stores its position with its data and skips a replayed record.
 */
final class RecordStateMachine extends BaseStateMachine {
  private final RecordApplier applier;
  private final AppliedIndex appliedIndex;

  RecordStateMachine(RecordApplier applier, AppliedIndex appliedIndex) {
    this.applier = applier;
    this.appliedIndex = appliedIndex;
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto entry = trx.getLogEntry();
    ByteString data = entry.getStateMachineLogEntry().getLogData();
    byte[] result = applier.apply(entry.getTerm(), entry.getIndex(), data.toByteArray());
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
    super.notifyTermIndexUpdated(term, index);
    appliedIndex.advance(index);
  }
}
