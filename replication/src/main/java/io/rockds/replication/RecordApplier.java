package io.rockds.replication;

/**
 * What a member of the group does with a committed record. Implementations must be deterministic:
 * every member applies the same records in the same order and must reach the same state and answer.
 */
public interface RecordApplier {
  /**
   * Applies one committed record and returns its result (handed to whoever submitted it). A record
   * the applier already applied (a replay of the log after a restart) must change nothing. A
   * refusal (the record's checks failed) is a result too, not an exception: the record still took
   * its place in the log.
   */
  byte[] apply(long term, long index, byte[] record);
}
