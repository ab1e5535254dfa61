package io.rockds.storage;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongFunction;

/**
 * Decoded entries by ID, bounded in bytes of heap ({@link StoredEntry#footprint}), without the
 * values stored apart ({@link Id2Values}: a group of 100,000 members is cached at the weight of its
 * other attributes), in two parts: a large entry (large binary values, or a group written before
 * members were stored apart, whose 100,000 members weigh about 10 MB; a user weighs about 9 KB)
 * goes to a part of its own, a quarter of the bytes, so that a few of them passing through evict
 * each other and never the thousands of small entries everything else reads. The small part is
 * Caffeine's (frequency-aware admission suits many entries of similar size); the large part a plain
 * LRU map, since Caffeine's admission turned away an entry of most of its capacity even when it was
 * empty.
 *
 * <p>Without a small part ({@code cacheSmallEntries} false, the default of the memory budget), all
 * the bytes go to large entries and a small entry is decoded again from the block cache on each
 * read (a group too: its record without its members is small): at 100k users that cost less CPU
 * than keeping entries decoded (misses churned the heap) and half the memory.
 *
 * <p>Consistency: an entry is loaded inside the small part's atomic compute for its ID, and a large
 * one is stored in the large part from within that compute; {@link #invalidate} removes the ID from
 * the small part first, which waits for a load in flight, then from the large part, so a load that
 * read the entry before a write cannot leave it cached after that write's invalidation. Without a
 * small part, loads take no lock: a large entry is stored only if no invalidation of its stripe of
 * IDs happened since its load began.
 */
final class EntryCache {
  /** The large part's share of the bytes. */
  static final int LARGE_SHARE_DIVISOR = 4;

  /** An entry is large when it weighs more than this fraction of the small part. */
  static final int LARGE_ENTRY_DIVISOR = 1024;

  /** The smallest weight of a large entry: the footprint of a group of a few hundred members. */
  static final long MIN_LARGE_ENTRY_BYTES = 64 * 1024;

  private static final int STRIPES = 64;

  /** The small part, or null when only large entries are cached. */
  private final Cache<Long, StoredEntry> small;

  private final LargeEntries large;
  private final long largeEntryBytes;

  /**
   * Without a small part: the invalidations of each stripe of IDs, counted under its lock, so that
   * a large entry loaded before an invalidation is not stored after it.
   */
  private final Object[] stripes;

  private final AtomicLongArray versions;

  private final AtomicLong uncachedLoads = new AtomicLong();

  /**
   * @param bytes the bound of both parts together
   * @param cacheSmallEntries whether small entries are cached too, in three quarters of the bytes
   */
  EntryCache(long bytes, boolean cacheSmallEntries) {
    if (!cacheSmallEntries) {
      this.small = null;
      this.large = new LargeEntries(bytes);
      this.largeEntryBytes = MIN_LARGE_ENTRY_BYTES;
      this.stripes = new Object[STRIPES];
      Arrays.setAll(stripes, i -> new Object());
      this.versions = new AtomicLongArray(STRIPES);
      return;
    }
    this.stripes = null;
    this.versions = null;
    long largeBytes = bytes / LARGE_SHARE_DIVISOR;
    long smallBytes = bytes - largeBytes;
    this.largeEntryBytes = Math.max(MIN_LARGE_ENTRY_BYTES, smallBytes / LARGE_ENTRY_DIVISOR);
    this.small =
        Caffeine.newBuilder()
            .maximumWeight(smallBytes)
            .weigher((Long id, StoredEntry e) -> e.footprint())
            .recordStats()
            // Eviction runs on the thread that caused it: handing it to the common pool cost a
            // thread wake-up per miss.
            .executor(Runnable::run)
            .build();
    this.large = new LargeEntries(largeBytes);
  }

  /** The entry, loaded and cached on a miss; null if {@code loader} finds none. */
  StoredEntry get(long id, LongFunction<StoredEntry> loader) {
    StoredEntry cached = large.get(id);
    if (cached != null) {
      return cached;
    }
    if (small == null) {
      int stripe = stripe(id);
      long version = versions.get(stripe);
      uncachedLoads.incrementAndGet();
      StoredEntry loaded = loader.apply(id);
      if (loaded != null && isLarge(loaded)) {
        synchronized (stripes[stripe]) {
          // Not if a write invalidated this stripe since the load began: it may have read before.
          if (versions.get(stripe) == version) {
            large.put(id, loaded);
          }
        }
      }
      return loaded;
    }
    StoredEntry[] loadedLarge = new StoredEntry[1];
    StoredEntry entry =
        small.get(
            id,
            key -> {
              StoredEntry loaded = loader.apply(key);
              if (loaded != null && isLarge(loaded)) {
                large.put(key, loaded);
                loadedLarge[0] = loaded;
                return null; // Not kept in the small part.
              }
              return loaded;
            });
    return entry != null ? entry : loadedLarge[0];
  }

  /** The cached entry, or null: never loads. */
  StoredEntry getIfPresent(long id) {
    StoredEntry cached = small == null ? null : small.getIfPresent(id);
    return cached != null ? cached : large.get(id);
  }

  private static int stripe(long id) {
    return (int) Long.remainderUnsigned(id, STRIPES);
  }

  /** Whether an entry of this footprint, once loaded, would be kept. */
  boolean wouldKeep(int footprint) {
    return small != null || footprint > largeEntryBytes;
  }

  boolean isLarge(StoredEntry entry) {
    return entry.footprint() > largeEntryBytes;
  }

  void invalidate(long id) {
    if (small == null) {
      int stripe = stripe(id);
      synchronized (stripes[stripe]) {
        versions.incrementAndGet(stripe);
        large.invalidate(id);
      }
      return;
    }
    small.invalidate(id);
    large.invalidate(id);
  }

  void invalidateAll() {
    if (small == null) {
      for (int stripe = 0; stripe < STRIPES; stripe++) {
        synchronized (stripes[stripe]) {
          versions.incrementAndGet(stripe);
        }
      }
    } else {
      small.invalidateAll();
    }
    large.clear();
  }

  /**
   * Hits, misses and evictions of both parts together. A large entry's load counts as a miss of the
   * small part; its later reads count as hits of the large part, which counts no misses (each probe
   * of it precedes the small part's).
   */
  CacheStats stats() {
    CacheStats s =
        small == null
            ? CacheStats.of(0, uncachedLoads.get(), uncachedLoads.get(), 0, 0, 0, 0)
            : small.stats();
    return CacheStats.of(
        s.hitCount() + large.hits(),
        s.missCount(),
        s.loadSuccessCount(),
        s.loadFailureCount(),
        s.totalLoadTime(),
        s.evictionCount() + large.evictions(),
        s.evictionWeight() + large.evictedBytes());
  }

  /** Entries cached. */
  long entries() {
    return (small == null ? 0 : small.estimatedSize()) + large.size();
  }

  /** Large entries cached. */
  long largeEntries() {
    return large.size();
  }

  /** Bytes of heap the cached entries weigh. */
  long bytes() {
    long smallBytes =
        small == null
            ? 0
            : small.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    return smallBytes + large.bytes();
  }

  /** Runs pending evictions now (they are otherwise amortised over later reads and writes). */
  void cleanUp() {
    if (small != null) {
      small.cleanUp();
    }
  }

  /** Large entries, least recently read evicted first once their bytes pass the bound. */
  private static final class LargeEntries {
    private final long maxBytes;
    private final LinkedHashMap<Long, StoredEntry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;
    private long hits;
    private long evictions;
    private long evictedBytes;

    LargeEntries(long maxBytes) {
      this.maxBytes = maxBytes;
    }

    synchronized StoredEntry get(long id) {
      StoredEntry entry = entries.get(id);
      if (entry != null) {
        hits++;
      }
      return entry;
    }

    synchronized void put(long id, StoredEntry entry) {
      if (entry.footprint() > maxBytes) {
        return;
      }
      StoredEntry previous = entries.put(id, entry);
      bytes += entry.footprint() - (previous == null ? 0 : previous.footprint());
      Iterator<StoredEntry> eldest = entries.values().iterator();
      while (bytes > maxBytes) {
        StoredEntry evicted = eldest.next();
        eldest.remove();
        bytes -= evicted.footprint();
        evictions++;
        evictedBytes += evicted.footprint();
      }
    }

    synchronized void invalidate(long id) {
      StoredEntry removed = entries.remove(id);
      if (removed != null) {
        bytes -= removed.footprint();
      }
    }

    synchronized void clear() {
      entries.clear();
      bytes = 0;
    }

    synchronized long size() {
      return entries.size();
    }

    synchronized long bytes() {
      return bytes;
    }

    synchronized long hits() {
      return hits;
    }

    synchronized long evictions() {
      return evictions;
    }

    synchronized long evictedBytes() {
      return evictedBytes;
    }
  }
}
