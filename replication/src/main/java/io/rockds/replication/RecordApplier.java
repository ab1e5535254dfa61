package io.rockds.replication;

/**
 * What a member of the group does with a committed record. Implementations must be deterministic:
 * every member applies the same records in the same order and must reach the same state and answer.
 */
public interface RecordApplier {
  /**
   * Applies one committed record and returns its result (handed to whoever submitted it). A record
   * at or below the position {@link #lastApplied} reports was applied already (a replay after a
   * restart) and must not change anything. A refusal (the record's checks failed) is a result too,
   * not an exception: the record still took its place in the log.
   */
  byte[] apply(long term, long index, byte[] record);

  /** The last position applied durably, or {@link Position#NONE}: replay starts after it. */
  Position lastApplied();

  /** A position in the replicated log. */
  record Position(long term, long index) {
    public static final Position NONE = new Position(0, -1);
  }
}
