package io.rockds.storage.maintenance;

/**
 * One inconsistency found by {@link IndexVerifier}.
 *
 * @param tree the tree holding the wrong record, e.g. {@code sn.caseIgnoreMatch} or {@code dn2id}
 * @param kind what is wrong
 * @param key the record's key as backendstat prints it (an index key, a DN, an ID)
 * @param id the entry ID concerned, or -1 when the mismatch is about the whole record
 * @param detail a sentence giving the expected and found values
 */
public record Mismatch(String tree, Kind kind, String key, long id, String detail) {
  /** A mismatch of a whole key, no one entry's. */
  static Mismatch ofKey(String tree, Kind kind, Object key, String detail) {
    return new Mismatch(tree, kind, key.toString(), -1, detail);
  }

  /** The kinds of inconsistency. */
  public enum Kind {
    /** An entry holds the key but the index record does not list its ID. */
    MISSING_ID,
    /** The index record lists an ID whose entry does not hold the key (or does not exist). */
    EXTRA_ID,
    /**
     * The record lists IDs although more entries than the limit hold the key, or is missing or
     * marked over-limit when it should list them (and the marker's count disagrees).
     */
    WRONG_LIMIT_STATE,
    /** The exact count kept for an over-limit key differs from the number of entries holding it. */
    WRONG_OVER_LIMIT_COUNT,
    /** An over-limit count is kept for a key whose record is not over the limit. */
    STRAY_OVER_LIMIT_COUNT,
    /** An id2entry record cannot be decoded. */
    UNDECODABLE_ENTRY,
    /** An entry's DN does not map back to its ID in dn2id. */
    DN_NOT_MAPPED,
    /** A dn2id record points to a missing entry or one with another DN. */
    ORPHAN_DN,
    /** An entry's parent is missing. */
    MISSING_PARENT,
    /** id2childrencount disagrees with the number of children in dn2id. */
    WRONG_CHILD_COUNT,
    /** The entry counter in state disagrees with the number of id2entry records. */
    WRONG_ENTRY_COUNT,
    /**
     * An id2values record belongs to no entry, or to one whose record does not list its attribute
     * as stored apart.
     */
    ORPHAN_VALUE
  }
}
