package io.rockds.storage;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.function.LongFunction;
import org.rocksdb.RocksDBException;

/**
 * A backend's decoded entries by ID, bounded by their memory footprint; shared by its entry
 * containers (IDs are unique per backend). A budget of 0 disables it: every read decodes.
 */
final class EntryCache {
  private final Cache<Long, StoredEntry> cache;

  EntryCache(long bytes) {
    this.cache = bytes > 0
        ? Caffeine.newBuilder()
            .maximumWeight(bytes)
            .weigher((Long id, StoredEntry e) -> e.footprint())
            .recordStats()
            .build()
        : null;
  }

  /** The entry, loaded on a miss; a loader's RocksDB failure (wrapped in IllegalStateException) is unwrapped. */
  StoredEntry get(long id, LongFunction<StoredEntry> loader) throws LDAPException {
    try {
      return cache == null ? loader.apply(id) : cache.get(id, loader::apply);
    } catch (IllegalStateException e) {
      if (e.getCause() instanceof RocksDBException r) {
        throw StorageErrors.wrap(r);
      }
      throw e;
    }
  }

  /** The cached entry, or null: never loads. */
  StoredEntry getIfPresent(long id) {
    return cache == null ? null : cache.getIfPresent(id);
  }

  void invalidate(long id) {
    if (cache != null) {
      cache.invalidate(id);
    }
  }

  void invalidateAll() {
    if (cache != null) {
      cache.invalidateAll();
    }
  }

  /** Hits, misses, evictions; null when disabled. */
  CacheStats stats() {
    return cache == null ? null : cache.stats();
  }

  long size() {
    return cache == null ? 0 : cache.estimatedSize();
  }
}
