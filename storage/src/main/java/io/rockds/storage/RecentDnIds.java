package io.rockds.storage;

/**
 * The entry IDs of the DNs a container read lately, by the DN spelled as stored: what spares a bind
 * its {@code dn2id} read (about 7 µs at 100k entries, a bind's largest cost) when it names an entry
 * just returned by a search, as clients authenticating a user do (search by uid, then bind as the
 * DN found).
 *
 * <p>Lossy and never invalidated: each DN has one slot, overwritten by any other DN hashing there,
 * and an ID found here is only a guess that the reader confirms against the entry's record (the
 * record at that ID names that DN, or the reader falls back to {@code dn2id}). A delete, rename,
 * subtree rename or replicated write that moved the DN away leaves a record with another DN or
 * none, so no write needs to know about this memo.
 */
final class RecentDnIds {
  /** Slots per container: far more than the DNs read between a search and the bind after it. */
  static final int SLOTS = 4096;

  private record Slot(String dn, long id) {}

  /**
   * Read and written without locks: a slot is an immutable record, published whole (final fields),
   * and a lost or stale one costs a {@code dn2id} read, never a wrong answer.
   */
  private final Slot[] slots = new Slot[SLOTS];

  /** The ID remembered for {@code dn} as spelled, or -1: to be confirmed against the record. */
  long idOf(String dn) {
    Slot slot = slots[index(dn)];
    return slot != null && slot.dn.equals(dn) ? slot.id : -1;
  }

  /** Remembers that the record of entry {@code id} names {@code dn}, as spelled there. */
  void remember(String dn, long id) {
    slots[index(dn)] = new Slot(dn, id);
  }

  private static int index(String dn) {
    int h = dn.hashCode();
    return (h ^ (h >>> 16)) & (SLOTS - 1);
  }
}
