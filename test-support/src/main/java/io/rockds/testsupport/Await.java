package io.rockds.testsupport;

import java.time.Duration;

/**
 * Waits, within a deadline, for what another thread or process makes true and announces to no one
 * (an entry replicated to a server, a leader elected, a log line written): it looks again every 50
 * ms, and fails naming what it waited for once the deadline passed.
 */
public final class Await {
  private static final long INTERVAL_MILLIS = 50;

  /** A condition to look at; an exception counts as "not yet". */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  /** A value to look for: null, or an exception, counts as "not yet". */
  @FunctionalInterface
  public interface Probe<T> {
    T get() throws Exception;
  }

  private Await() {}

  /** Returns once {@code condition} holds; fails after {@code limit}. */
  public static void until(String what, Duration limit, Condition condition)
      throws InterruptedException {
    value(what, limit, () -> condition.holds() ? Boolean.TRUE : null);
  }

  /** Returns the first value {@code probe} gives that is not null; fails after {@code limit}. */
  public static <T> T value(String what, Duration limit, Probe<T> probe)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    Exception last = null;
    while (true) {
      try {
        T value = probe.get();
        if (value != null) {
          return value;
        }
      } catch (Exception e) {
        last = e;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + limit + " waiting until " + what, last);
      }
      Thread.sleep(INTERVAL_MILLIS); // polling interval of a condition with a deadline
    }
  }
}
