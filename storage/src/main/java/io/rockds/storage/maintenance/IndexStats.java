package io.rockds.storage.maintenance;

import io.rockds.storage.IndexEntryLimit;
import java.util.List;

/**
 * The statistics of one index, as backendstat prints them.
 *
 * @param name the tree name, e.g. {@code sn.caseIgnoreMatch}
 * @param trusted false while the index needs a rebuild (searches ignore it)
 * @param limit the index-entry-limit in force
 * @param builtWithLimit the limit the records were built with; when it differs from {@code limit}
 *     the index answers correctly but a rebuild would tighten it
 * @param recordCount the number of keys
 * @param idCount the IDs listed by all defined records (over-limit keys not included)
 * @param overLimitKeys every key reading as "all entries" with its exact entry count, in key order:
 *     over-limit records, and lists longer than a limit lowered since they were written
 * @param nearLimitKeys defined keys holding at least 85% of the limit, in key order
 * @param recoverableKeys over-limit keys whose exact count is back within the limit
 */
public record IndexStats(
    String name,
    boolean trusted,
    IndexEntryLimit limit,
    int builtWithLimit,
    long recordCount,
    long idCount,
    List<KeyCount> overLimitKeys,
    List<KeyCount> nearLimitKeys,
    List<KeyCount> recoverableKeys) {

  /** The threshold percentages backendstat reports. */
  public static final int[] THRESHOLDS = {85, 90, 95};

  public IndexStats {
    overLimitKeys = List.copyOf(overLimitKeys);
    nearLimitKeys = List.copyOf(nearLimitKeys);
    recoverableKeys = List.copyOf(recoverableKeys);
  }

  /** True when the limit changed since the index was built: a rebuild would tighten it. */
  public boolean rebuildWouldTighten() {
    return builtWithLimit != limit.limit();
  }

  /** Defined keys holding at least {@code percent}% of the limit (85 or more). */
  public List<KeyCount> keysAtPercent(int percent) {
    if (percent < THRESHOLDS[0]) {
      throw new IllegalArgumentException(
          "percent: " + percent + " (expected: >= " + THRESHOLDS[0] + ")");
    }
    return nearLimitKeys.stream().filter(k -> limit.isAtPercent(k.count(), percent)).toList();
  }
}
