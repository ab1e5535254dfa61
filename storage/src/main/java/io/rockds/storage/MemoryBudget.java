package io.rockds.storage;

/**
 * How the memory the operator gives the server is shared (OpenDJ's {@code db-cache-percent}, for
 * every cache at once): a quarter for the JVM heap, of which 40 % holds the entry caches; half for
 * the RocksDB block caches; a little for memtables; the rest stays with the operating system, whose
 * page cache holds the compressed table files. Backends share these amounts evenly.
 *
 * <p>Defaults: half the machine's memory. On 24 GiB that is a 3 GiB heap (1.2 GiB of entry cache,
 * about 130,000 user entries), 6 GiB of block cache (the index and filter blocks of 10M entries and
 * the hot data blocks), 192 MiB of memtables.
 *
 * @param totalBytes what the server may use
 * @param heapBytes the JVM heap ({@code -Xmx}) the budget implies; {@code bin/start-ds} applies it
 * @param entryCacheBytes entry caches of all backends, 40 % of the heap actually in effect
 * @param blockCacheBytes block caches of all backends
 * @param memtableBytes memtables of all backends
 */
public record MemoryBudget(
    long totalBytes,
    long heapBytes,
    long entryCacheBytes,
    long blockCacheBytes,
    long memtableBytes) {
  /**
   * The heap share of the budget: {@code bin/start-ds} gives the JVM {@code -XX:MaxRAMPercentage}
   * of it.
   */
  public static final int HEAP_PERCENT = 25;

  static final int ENTRY_CACHE_PERCENT_OF_HEAP = 40;
  static final long MIN_MEMTABLE_BYTES = 64L << 20;
  static final long MAX_MEMTABLE_BYTES = 512L << 20;

  /**
   * The shares of {@code totalBytes} (0 = half of {@code physicalBytes}), with the entry caches
   * taken from the heap the JVM really has ({@code maxHeapBytes}), whatever the budget implied.
   */
  public static MemoryBudget derive(long totalBytes, long physicalBytes, long maxHeapBytes) {
    long total = totalBytes > 0 ? totalBytes : physicalBytes / 2;
    long memtables = Math.max(MIN_MEMTABLE_BYTES, Math.min(MAX_MEMTABLE_BYTES, total / 64));
    return new MemoryBudget(
        total,
        total * HEAP_PERCENT / 100,
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

  /** One of {@code backends} backends' share of a cache. */
  public static long share(long bytes, int backends) {
    return bytes / Math.max(1, backends);
  }
}
