package io.rockds.protocol;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The number of client connections a server accepts at once, shared by all its listeners so that
 * the limit is global. A connection over the limit is answered with a Notice of Disconnection and
 * closed.
 */
public final class ConnectionLimit {
  private final int max;
  private final AtomicInteger open = new AtomicInteger();

  /**
   * @param max connections at once; 0 means no limit
   */
  public ConnectionLimit(int max) {
    if (max < 0) {
      throw new IllegalArgumentException("max: " + max + " (expected: >= 0)");
    }
    this.max = max;
  }

  public static ConnectionLimit unlimited() {
    return new ConnectionLimit(0);
  }

  /** Takes a slot; false when the limit is reached. */
  boolean tryAcquire() {
    while (true) {
      int current = open.get();
      if (max > 0 && current >= max) {
        return false;
      }
      if (open.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  void release() {
    open.decrementAndGet();
  }

  /** Connections open across all listeners sharing this limit. */
  public int open() {
    return open.get();
  }
}
