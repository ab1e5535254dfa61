package io.rockds.storage;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fixed array of lock stripes. Callers take every stripe they need at once, in ascending order,
 * so two writers touching the same keys in different orders cannot deadlock; the stripes are held
 * until the write batch has committed, so no read-modify-write sees a stale record.
 */
final class KeyLocks {
  private final ReentrantLock[] stripes;

  KeyLocks(int count) {
    stripes = new ReentrantLock[count];
    for (int i = 0; i < count; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  int stripeOf(int hash) {
    int h = hash ^ (hash >>> 16);
    return (h & 0x7fffffff) % stripes.length;
  }

  /**
   * Locks the given stripes (any order, duplicates allowed); returns what to pass to {@link
   * #unlock}.
   */
  int[] lock(int[] wanted) {
    int[] sorted = Arrays.stream(wanted).sorted().distinct().toArray();
    for (int s : sorted) {
      stripes[s].lock();
    }
    return sorted;
  }

  void unlock(int[] locked) {
    for (int i = locked.length - 1; i >= 0; i--) {
      stripes[locked[i]].unlock();
    }
  }
}
