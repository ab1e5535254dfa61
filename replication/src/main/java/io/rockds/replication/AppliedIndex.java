package io.rockds.replication;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The last log index the local member applied, and who waits for it to reach an index: the member
 * that received a write answers its client only once it applied the write itself (read your
 * writes).
 */
final class AppliedIndex {
  private final AtomicLong applied = new AtomicLong(-1);
  private final ConcurrentSkipListMap<Long, CompletableFuture<Void>> waiters =
      new ConcurrentSkipListMap<>();

  long get() {
    return applied.get();
  }

  void advance(long index) {
    applied.accumulateAndGet(index, Math::max);
    Map<Long, CompletableFuture<Void>> reached = waiters.headMap(index, true);
    reached.values().forEach(f -> f.complete(null));
    reached.clear();
  }

  /** Completes once the local member applied {@code index}. */
  CompletableFuture<Void> reached(long index) {
    if (applied.get() >= index) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> waiter = waiters.computeIfAbsent(index, i -> new CompletableFuture<>());
    if (applied.get() >= index) { // advanced between the first check and the registration
      waiter.complete(null);
      waiters.remove(index);
    }
    return waiter;
  }
}
