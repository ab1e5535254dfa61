package io.rockds.storage;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live index-entry-limits of one backend: its own limit and each index's override, as the
 * configuration says now. Every reader and writer of index records asks this object whether a key
 * is over its limit (writes, searches, rebuild, import, verify, backendstat), so a limit changed on
 * a running server applies everywhere at once.
 *
 * <p>A limit change leaves the index trusted, as OpenDJ does: a key stored over the limit stays
 * "all entries" (a superset, which is correct) until a rebuild recounts it, and a key stored as a
 * list longer than the new limit reads as "all entries" at once and becomes an over-limit record on
 * its next write. Each index remembers the limit its records were built with ({@link
 * AttributeIndex#builtWithLimit()}); while the two differ, a rebuild would tighten the index
 * ({@link #rebuildWouldTighten}).
 */
public final class IndexEntryLimits {
  private volatile IndexEntryLimit backendLimit;
  private final Map<String, IndexEntryLimit> ownLimits = new ConcurrentHashMap<>();

  public IndexEntryLimits(int backendLimit) {
    this.backendLimit = new IndexEntryLimit(backendLimit);
  }

  /** The limits of {@code settings}: the backend's, and each index's own. */
  static IndexEntryLimits of(BackendSettings settings) {
    IndexEntryLimits limits = new IndexEntryLimits(settings.indexEntryLimit());
    for (IndexSpec spec : settings.indexes()) {
      limits.setOwnLimit(spec.attribute(), spec.entryLimit());
    }
    return limits;
  }

  /** The backend's limit, for indexes without their own. */
  public IndexEntryLimit backendLimit() {
    return backendLimit;
  }

  public void setBackendLimit(int limit) {
    backendLimit = new IndexEntryLimit(limit);
  }

  /** Sets the limit of the indexes of {@code attribute}; null makes them follow the backend's. */
  public void setOwnLimit(String attribute, Integer limit) {
    String key = attribute.toLowerCase(Locale.ROOT);
    if (limit == null) {
      ownLimits.remove(key);
    } else {
      ownLimits.put(key, new IndexEntryLimit(limit));
    }
  }

  /** The limit in force for the indexes of {@code attribute}. */
  public IndexEntryLimit of(String attribute) {
    IndexEntryLimit own = ownLimits.get(attribute.toLowerCase(Locale.ROOT));
    return own != null ? own : backendLimit;
  }

  /** True when a key listing {@code count} entries of this index must be stored over the limit. */
  public boolean isExceededBy(AttributeIndex index, long count) {
    return of(index.attribute()).isExceededBy(count);
  }

  /**
   * True when a stored record reads as "all entries": the over-limit marker, or a list longer than
   * the limit now in force (stored before the limit was lowered).
   */
  public boolean isOverLimit(AttributeIndex index, byte[] record) {
    return IdListCodec.isOverLimit(record)
        || record != null && isExceededBy(index, IdListCodec.count(record));
  }

  /**
   * True when the index's records were built with another limit than the one in force: it answers
   * correctly, but a rebuild would make it exact again (recount keys over the old limit, turn lists
   * over the new one into over-limit records).
   */
  public boolean rebuildWouldTighten(AttributeIndex index) {
    return index.builtWithLimit() != of(index.attribute()).limit();
  }
}
