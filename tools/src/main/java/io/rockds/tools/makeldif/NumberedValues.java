package io.rockds.tools.makeldif;

import java.util.function.Consumer;

/**
 * The values of a line holding a {@link PartitionTag}: {@code prefix + i + suffix} for each integer
 * i of the range. Kept as a formula so that a group of a million members is written out value by
 * value instead of being built in memory.
 */
record NumberedValues(String prefix, Range range, String suffix) {
  /** {@code start, start + step, ...} up to {@code last} inclusive; empty when start > last. */
  record Range(long start, long step, long last) {}

  void forEach(Consumer<String> sink) {
    StringBuilder value = new StringBuilder(prefix.length() + 20 + suffix.length()).append(prefix);
    for (long i = range.start(); i <= range.last(); i += range.step()) {
      value.setLength(prefix.length());
      sink.accept(value.append(i).append(suffix).toString());
      if (i > Long.MAX_VALUE - range.step()) {
        break;
      }
    }
  }

  boolean isEmpty() {
    return range.start() > range.last();
  }
}
