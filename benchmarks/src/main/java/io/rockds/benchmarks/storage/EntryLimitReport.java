package io.rockds.benchmarks.storage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code backendstat show-index-status} prints per index: the keys over the entry limit and
 * how many keys are at 95, 90 and 85 percent of it or more (each column counts the keys at or above
 * its threshold that are still under the limit).
 *
 * @param keysScanned records the report had to read to produce this
 */
record EntryLimitReport(
    long keysScanned,
    List<String> overLimitKeys,
    long atOrAbove95,
    long atOrAbove90,
    long atOrAbove85) {

  /** Accumulates the report one key at a time. */
  static final class Tally {
    private final int limit;
    private final List<String> overLimitKeys = new ArrayList<>();
    private long keysScanned;
    private long atOrAbove95;
    private long atOrAbove90;
    private long atOrAbove85;

    Tally(int limit) {
      this.limit = limit;
    }

    void scanned() {
      keysScanned++;
    }

    /** Records a key holding {@code count} IDs; a count above the limit makes it over the limit. */
    void key(byte[] key, long count) {
      if (count > limit) {
        overLimit(key);
      } else if (count * 100 >= 95L * limit) {
        atOrAbove95++;
        atOrAbove90++;
        atOrAbove85++;
      } else if (count * 100 >= 90L * limit) {
        atOrAbove90++;
        atOrAbove85++;
      } else if (count * 100 >= 85L * limit) {
        atOrAbove85++;
      }
    }

    void overLimit(byte[] key) {
      overLimitKeys.add(new String(key, StandardCharsets.UTF_8));
    }

    EntryLimitReport result() {
      return new EntryLimitReport(
          keysScanned, List.copyOf(overLimitKeys), atOrAbove95, atOrAbove90, atOrAbove85);
    }
  }
}
