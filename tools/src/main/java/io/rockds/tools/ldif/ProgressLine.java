package io.rockds.tools.ldif;

import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * Prints a progress line to stderr at most every few seconds: count, rate and, when the input size
 * is known, an ETA from the fraction of input consumed. Silent with {@code --quiet}.
 */
final class ProgressLine {
  private static final long INTERVAL_NANOS = 5_000_000_000L;

  private final String noun;
  private final PrintStream out;
  private final LongSupplier bytesDone;
  private final long bytesTotal;
  private final long start = System.nanoTime();
  private long lastPrint = start;

  /**
   * @param bytesTotal the input size, or 0 if unknown (no ETA)
   */
  ProgressLine(String noun, PrintStream out, LongSupplier bytesDone, long bytesTotal) {
    this.noun = noun;
    this.out = out;
    this.bytesDone = bytesDone;
    this.bytesTotal = bytesTotal;
  }

  /** Called with the running count; prints when the interval has passed. */
  synchronized void update(long count) {
    long now = System.nanoTime();
    if (out == null || now - lastPrint < INTERVAL_NANOS) {
      return;
    }
    lastPrint = now;
    double seconds = (now - start) / 1e9;
    StringBuilder line =
        new StringBuilder(String.format("%,d %s (%,.0f/s)", count, noun, count / seconds));
    long done = bytesDone.getAsLong();
    if (bytesTotal > 0 && done > 0 && done < bytesTotal) {
      long eta = Math.round(seconds * (bytesTotal - done) / done);
      line.append(
          String.format(", %d%%, about %d:%02d left", done * 100 / bytesTotal, eta / 60, eta % 60));
    }
    out.println(line);
  }
}
