package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

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
 *     the block cache
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

  /**
   * These settings with memtables sized to the table files already in {@link #directory} ({@link
   * MemoryBudget#memtablesFor}), {@link #memtableBytes} being the most they may take: what a server
   * opens a backend with. Tools writing in bulk keep the whole share.
   */
  public BackendSettings forServing() {
    return withMemtableBytes(MemoryBudget.memtablesFor(tableBytes(directory), memtableBytes));
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

  /** Bytes of the table (SST) files in {@code directory}; 0 when it does not exist yet. */
  static long tableBytes(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      long total = 0;
      for (Path file : (Iterable<Path>) files::iterator) {
        if (file.getFileName().toString().endsWith(".sst")) {
          total += Files.size(file);
        }
      }
      return total;
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
