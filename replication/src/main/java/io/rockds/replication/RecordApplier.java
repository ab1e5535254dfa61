package io.rockds.replication;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What a member of the group does with a committed record. Implementations must be deterministic:
 * every member applies the same records in the same order and must reach the same state and answer.
 * A record never begins with the byte {@code 0xff}: that byte marks a log entry holding several
 * records ({@link RecordBatch}).
 */
public interface RecordApplier {
  /**
   * Applies one committed record and returns its result (handed to whoever submitted it). A record
   * the applier already applied (a replay of the log after a restart, which may stop in the middle
   * of an entry's records) must change nothing: the applier stores the position with its data. A
   * refusal (the record's checks failed) is a result too, not an exception: the record still took
   * its place in the log, and the other records of its entry are applied as usual.
   *
   * @throws RuntimeException when this member could not apply the record although the others can
   *     (its storage failed): the member then stops applying, reports why in {@link
   *     GroupStatus#applyFailure()}, and retries the record from its log once restarted
   */
  byte[] apply(RecordPosition position, byte[] record);

  /**
   * Checks a record on the leader before it is appended to the log: returns the answer to give
   * instead of appending it (a refusal, handed to whoever submitted it as {@link #apply}'s result
   * would be), or null to append it. The leader's applied state may lag records appended and not
   * yet applied, so {@link #apply} must check again. By default every record is appended.
   */
  default byte[] refusal(byte[] record) {
    return null;
  }

  /**
   * Writes a copy of the applied state into {@code directory} (absent yet): the snapshot other
   * members install when they are too far behind to follow the log. Called on the apply thread, so
   * no record applies meanwhile.
   */
  void checkpoint(Path directory) throws IOException;

  /**
   * The member received the leader's snapshot: {@code directory} holds what the leader's {@link
   * #checkpoint} wrote. Returns true once the applied state is the snapshot's (or already was), so
   * that the member follows the log from it; false when the state can only be replaced while the
   * server is stopped: the member then applies nothing more until it is restarted, and the server
   * installs {@link ReplicationNode#latestSnapshot the snapshot} before its replication starts.
   */
  boolean install(Path directory) throws IOException;
}
