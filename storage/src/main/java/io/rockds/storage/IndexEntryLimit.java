package io.rockds.storage;

/**
 * The one place that decides what an index-entry-limit means. OpenDJ shipped bugs because its
 * importer, rebuild and backendstat each read {@code 0} differently (as "zero IDs" instead of "no
 * limit"); here every caller asks this class.
 *
 * <p>A key may list up to {@code limit} IDs; the key that would list {@code limit + 1} becomes
 * over-limit and reads as all entries. {@code 0} means no limit.
 */
public record IndexEntryLimit(int limit) {
  /** OpenDJ's default, which operators know. */
  public static final int DEFAULT = 4000;

  public IndexEntryLimit {
    if (limit < 0) {
      throw new IllegalArgumentException(
          "index-entry-limit: " + limit + " (expected: >= 0, 0 meaning no limit)");
    }
  }

  public boolean isUnlimited() {
    return limit == 0;
  }

  /** True when a key holding {@code count} IDs must be stored as over the limit. */
  public boolean isExceededBy(long count) {
    return limit > 0 && count > limit;
  }

  /** True when a key holding {@code count} IDs is at or past {@code percent}% of the limit. */
  public boolean isAtPercent(long count, int percent) {
    return limit > 0 && count * 100 >= (long) limit * percent;
  }

  @Override
  public String toString() {
    return isUnlimited() ? "unlimited" : Integer.toString(limit);
  }
}
