package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything needed to open one backend, so that storage can be built without a server.
 *
 * @param id the backend ID, e.g. {@code userRoot}
 * @param baseDns the suffixes it holds (one entry container each)
 * @param directory the RocksDB directory
 * @param indexEntryLimit backend-wide index-entry-limit (0 = no limit)
 * @param indexes the attribute indexes of every base DN
 * @param syncWrites fsync the WAL on every commit, so an acknowledged write survives power loss
 * @param entryCacheBytes entry cache bound (0 disables it)
 * @param cacheSmallEntries whether the entry cache keeps entries of every size (an operator's
 *     explicit entry-cache-size) or large ones only (groups: the default), small entries being
 *     cheaper to decode again from the block cache than to keep decoded on the heap
 * @param blockCacheBytes the RocksDB block cache shared by all column families
 * @param compression {@code lz4-zstd} (LZ4 upper levels, ZSTD bottommost), {@code lz4}, {@code
 *     zstd} or {@code none}
 * @param memtableBytes memory of all memtables together, whatever the number of indexes, charged to
 *     the block cache: the whole of it for a tool writing in bulk, the most a server's bound may
 *     grow to ({@link Backend#openServing})
 */
public record BackendSettings(
    String id,
    List<DN> baseDns,
    Path directory,
    int indexEntryLimit,
    List<IndexSpec> indexes,
    boolean syncWrites,
    long entryCacheBytes,
    boolean cacheSmallEntries,
    long blockCacheBytes,
    String compression,
    long memtableBytes) {

  public BackendSettings {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("backend-id: must not be empty");
    }
    if (baseDns.isEmpty()) {
      throw new IllegalArgumentException("base-dn of backend " + id + ": at least one is required");
    }
    new IndexEntryLimit(indexEntryLimit);
    baseDns = List.copyOf(baseDns);
    indexes = List.copyOf(indexes);
  }

  /** The defaults for a backend in {@code directory} holding {@code baseDns}, with no index yet. */
  public static BackendSettings defaults(String id, Path directory, DN... baseDns) {
    return new BackendSettings(
        id,
        List.of(baseDns),
        directory,
        IndexEntryLimit.DEFAULT,
        List.of(),
        true,
        64L << 20,
        true,
        128L << 20,
        "lz4-zstd",
        MemoryBudget.MIN_MEMTABLE_BYTES);
  }

  public BackendSettings withIndexes(List<IndexSpec> newIndexes) {
    return new BackendSettings(
        id,
        baseDns,
        directory,
        indexEntryLimit,
        newIndexes,
        syncWrites,
        entryCacheBytes,
        cacheSmallEntries,
        blockCacheBytes,
        compression,
        memtableBytes);
  }

  public BackendSettings withIndexEntryLimit(int limit) {
    return new BackendSettings(
        id,
        baseDns,
        directory,
        limit,
        indexes,
        syncWrites,
        entryCacheBytes,
        cacheSmallEntries,
        blockCacheBytes,
        compression,
        memtableBytes);
  }

  public BackendSettings withSyncWrites(boolean sync) {
    return new BackendSettings(
        id,
        baseDns,
        directory,
        indexEntryLimit,
        indexes,
        sync,
        entryCacheBytes,
        cacheSmallEntries,
        blockCacheBytes,
        compression,
        memtableBytes);
  }

  public BackendSettings withMemtableBytes(long bytes) {
    return new BackendSettings(
        id,
        baseDns,
        directory,
        indexEntryLimit,
        indexes,
        syncWrites,
        entryCacheBytes,
        cacheSmallEntries,
        blockCacheBytes,
        compression,
        bytes);
  }
}
