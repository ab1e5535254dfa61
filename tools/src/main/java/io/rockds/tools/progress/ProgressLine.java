package io.rockds.tools.progress;

import java.util.concurrent.TimeUnit;

/**
 * The text of progress and summary lines, e.g. {@code makeldif: 120000/1000000 entries, 15000/s,
 * ETA 58s} and {@code makeldif: 1000000 entries in 1m06s, 15151/s}. Rates are averages since the
 * start.
 */
final class ProgressLine {
  private ProgressLine() {}

  /**
   * @param total the expected count, or a negative number when unknown
   */
  static String progress(String task, long count, long total, long elapsedNanos) {
    StringBuilder line = new StringBuilder(task).append(": ").append(count);
    if (total >= 0) {
      line.append('/').append(total);
    }
    long rate = rate(count, elapsedNanos);
    line.append(" entries, ").append(rate).append("/s");
    if (total >= count && rate > 0) {
      line.append(", ETA ")
          .append(duration(TimeUnit.SECONDS.toNanos((total - count + rate - 1) / rate)));
    }
    return line.toString();
  }

  static String summary(String task, long count, long elapsedNanos) {
    return task
        + ": "
        + count
        + " entries in "
        + duration(elapsedNanos)
        + ", "
        + rate(count, elapsedNanos)
        + "/s";
  }

  /** Entries per second; the count itself when less than a millisecond has passed. */
  static long rate(long count, long elapsedNanos) {
    if (elapsedNanos < TimeUnit.MILLISECONDS.toNanos(1)) {
      return count;
    }
    return (long) (count / (elapsedNanos / 1e9));
  }

  /** {@code 850ms}, {@code 58s}, {@code 3m12s}, {@code 2h05m}. */
  static String duration(long nanos) {
    long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
    if (millis < 1000) {
      return millis + "ms";
    }
    long seconds = millis / 1000;
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return String.format("%dm%02ds", seconds / 60, seconds % 60);
    }
    return String.format("%dh%02dm", seconds / 3600, seconds / 60 % 60);
  }
}
