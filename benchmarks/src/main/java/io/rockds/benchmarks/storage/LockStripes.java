package io.rockds.benchmarks.storage;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fixed array of locks, one chosen per key by hash. A writer locks the stripes of all keys it
 * rewrites at once, in ascending stripe order so that two writers can never deadlock, and holds
 * them until its {@code WriteBatch} is committed.
 */
final class LockStripes {

  private final ReentrantLock[] locks;

  LockStripes(int stripeCount) {
    if (Integer.bitCount(stripeCount) != 1) {
      throw new IllegalArgumentException(
          "stripeCount: " + stripeCount + " (expected: a power of two)");
    }
    locks = new ReentrantLock[stripeCount];
    Arrays.setAll(locks, i -> new ReentrantLock());
  }

  /** Locks the stripes of {@code keys}; returns them, sorted and distinct, for {@link #unlock}. */
  int[] lock(List<byte[]> keys) {
    int[] stripes = keys.stream().mapToInt(this::stripeOf).sorted().distinct().toArray();
    for (int stripe : stripes) {
      locks[stripe].lock();
    }
    return stripes;
  }

  void unlock(int[] stripes) {
    for (int i = stripes.length - 1; i >= 0; i--) {
      locks[stripes[i]].unlock();
    }
  }

  private int stripeOf(byte[] key) {
    int hash = Arrays.hashCode(key);
    return (hash ^ (hash >>> 16)) & (locks.length - 1);
  }
}
