package io.rockds.storage;

/**
 * How the memory the operator gives the server is shared (OpenDJ's {@code db-cache-percent}, for
 * every cache at once): half for the RocksDB block caches, which hold the table blocks read and so
 * grow only as far as the data that is read; a little for memtables, charged to the block cache so
 * that blocks and memtables share one bound; a heap sized for the work (a thirty-second of the
 * budget, at least 512 MiB), of which 40 % holds the entry caches of decoded large entries
 * (groups); the rest stays with the operating system, whose page cache holds the table files.
 * Backends share these amounts evenly.
 *
 * <p>The memtables' share is an upper bound: a server's backend gets an eighth of the table files
 * it holds, at least {@link #MIN_SERVING_MEMTABLE_BYTES} ({@link #memtablesFor}), re-derived as
 * they grow ({@link MemtableBound}). Memtables fill with every write until flushed, so a bound
 * larger than the data only kept written data twice in memory (at 100k users, 197 MB of memtables
 * for 190 MiB of table files after a run of modifies); tools writing in bulk (an import) keep the
 * whole share.
 *
 * <p>The heap is small on purpose: a decoded entry weighs about three times its stored record and
 * reading a record from the block cache and decoding only what a request needs costs little, so a
 * large entry cache buys little speed for much memory (measured at 100k entries: a 384 MiB heap
 * served searches and binds at the CPU cost of a 3 GiB one with 0.4 times the resident memory; and
 * with no small entries cached at all a search of all attributes cost 0.63 times the CPU, with 0.53
 * times the resident memory, because caching entries read at random churned the heap).
 *
 * <p>Defaults: half the machine's memory. On 24 GiB that is 6 GiB of block cache (the index and
 * filter blocks of 10M entries and the hot data blocks), up to 192 MiB of memtables (32 MiB for
 * 100k users, 192 MiB from 1.5 GiB of data on) and a 512 MiB heap with 205 MiB of entry cache for
 * large entries (the groups). An explicit {@code entry-cache-size} caches entries of every size.
 *
 * @param totalBytes what the server may use
 * @param heapBytes the JVM heap ({@code -Xmx}) the budget implies; {@code bin/start-ds} applies it
 * @param entryCacheBytes entry caches of all backends, 40 % of the heap actually in effect
 * @param blockCacheBytes block caches of all backends
 * @param memtableBytes memtables of all backends at most ({@link #memtablesFor})
 */
public record MemoryBudget(
    long totalBytes,
    long heapBytes,
    long entryCacheBytes,
    long blockCacheBytes,
    long memtableBytes) {
  /** The heap is this fraction of the budget ({@code bin/start-ds} computes the same)... */
  static final int HEAP_DIVISOR = 32;

  /** ...but never less than this: room for a few large groups being changed at once. */
  static final long MIN_HEAP_BYTES = 512L << 20;

  static final int ENTRY_CACHE_PERCENT_OF_HEAP = 40;
  static final long MIN_MEMTABLE_BYTES = 64L << 20;
  static final long MAX_MEMTABLE_BYTES = 512L << 20;

  /** A serving backend's memtables are this fraction of its table files... */
  static final int TABLE_BYTES_PER_MEMTABLE_BYTE = 8;

  /** ...but at least this: a few seconds of modifies between flushes. */
  static final long MIN_SERVING_MEMTABLE_BYTES = 32L << 20;

  /**
   * The shares of {@code totalBytes} (0 = half of {@code physicalBytes}), with the entry caches
   * taken from the heap the JVM really has ({@code maxHeapBytes}), whatever the budget implied.
   */
  public static MemoryBudget derive(long totalBytes, long physicalBytes, long maxHeapBytes) {
    long total = totalBytes > 0 ? totalBytes : physicalBytes / 2;
    long memtables = Math.max(MIN_MEMTABLE_BYTES, Math.min(MAX_MEMTABLE_BYTES, total / 64));
    return new MemoryBudget(
        total,
        Math.max(MIN_HEAP_BYTES, total / HEAP_DIVISOR),
        maxHeapBytes * ENTRY_CACHE_PERCENT_OF_HEAP / 100,
        total / 2,
        memtables);
  }

  /** The budget of this JVM on this machine. */
  public static MemoryBudget ofThisProcess(long totalBytes) {
    return derive(totalBytes, physicalMemory(), Runtime.getRuntime().maxMemory());
  }

  /** The machine's memory, or 8 GiB if the JVM cannot tell. */
  static long physicalMemory() {
    if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return 8L << 30;
  }

  /**
   * The memtables of a backend that serves {@code tableBytes} of table files, within the {@code
   * shareBytes} the budget gives it: an eighth of the data, at least {@link
   * #MIN_SERVING_MEMTABLE_BYTES}, at most the share.
   */
  public static long memtablesFor(long tableBytes, long shareBytes) {
    return memtablesFor(tableBytes, MIN_SERVING_MEMTABLE_BYTES, shareBytes);
  }

  /** The same with another floor than {@link #MIN_SERVING_MEMTABLE_BYTES}. */
  static long memtablesFor(long tableBytes, long floorBytes, long shareBytes) {
    return Math.min(shareBytes, Math.max(floorBytes, tableBytes / TABLE_BYTES_PER_MEMTABLE_BYTE));
  }

  /** One of {@code backends} backends' share of a cache. */
  public static long share(long bytes, int backends) {
    return bytes / Math.max(1, backends);
  }
}
