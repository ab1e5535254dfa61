import java.nio.charset.StandardCharsets;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.rocksdb.*;

/**
 * What one search costs RocksDB, outside the server: random point reads of an equality index key
 * (the uid index) and of the entry it names (id2entry), on a copy of a backend's database, with
 * the block cache configured as before or after issue 23, with RocksDB's statistics per block type
 * and its perf context. Run it on a stopped server's database (it opens it read-only):
 *
 *   java -cp "tools/target/lib/*" benchmarks/scale/BlockCacheProbe.java DB_DIR old|new [READS]
 *
 * old = LRUCache(128 MB) with RocksDB's default sharding and no high-priority pool (the layout before);
 * new = the same capacity in 4 shards with half of it for index and filter blocks, cached with high priority.
 */
public class BlockCacheProbe {
  public static void main(String[] args) throws Exception {
    RocksDB.loadLibrary();
    String path = args[0];
    boolean tuned = args[1].equals("new");
    int reads = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
    long capacity = 128L << 20;
    try (Statistics stats = new Statistics();
        LRUCache cache = tuned ? new LRUCache(capacity, 2, false, 0.5) : new LRUCache(capacity);
        DBOptions db = new DBOptions().setStatistics(stats)) {
      BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache)
          .setFilterPolicy(new BloomFilter(10, false)).setCacheIndexAndFilterBlocks(true)
          .setPinL0FilterAndIndexBlocksInCache(true).setCacheIndexAndFilterBlocksWithHighPriority(tuned)
          .setPinTopLevelIndexAndFilter(true);
      ColumnFamilyOptions cf = new ColumnFamilyOptions().setTableFormatConfig(table).setMergeOperator(new UInt64AddOperator());
      List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
      for (byte[] name : RocksDB.listColumnFamilies(new Options(), path)) {
        descriptors.add(new ColumnFamilyDescriptor(name, cf));
      }
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      try (RocksDB rocks = RocksDB.openReadOnly(db, path, descriptors, handles)) {
        ColumnFamilyHandle entries = null;
        ColumnFamilyHandle uid = null;
        for (int i = 0; i < descriptors.size(); i++) {
          String name = new String(descriptors.get(i).getName(), StandardCharsets.UTF_8);
          if (name.endsWith("/id2entry")) entries = handles.get(i);
          if (name.endsWith("/uid.equality") || name.endsWith("/uid")) uid = handles.get(i);
          if (uid == null && name.contains("/uid")) uid = handles.get(i);
        }
        List<byte[]> uidKeys = new ArrayList<>(); // every 100th key: enough to spread reads over the whole index
        try (ReadOptions scan = new ReadOptions().setFillCache(false); RocksIterator it = rocks.newIterator(uid, scan)) {
          int n = 0;
          for (it.seekToFirst(); it.isValid(); it.next()) {
            if (n++ % 100 == 0) uidKeys.add(it.key());
          }
        }
        long maxId;
        try (RocksIterator it = rocks.newIterator(entries)) {
          it.seekToLast();
          maxId = java.nio.ByteBuffer.wrap(it.key()).getLong();
        }
        SplittableRandom random = new SplittableRandom(42);
        rocks.setPerfLevel(PerfLevel.ENABLE_TIME_EXCEPT_FOR_MUTEX);
        for (int pass = 0; pass < 2; pass++) { // the first pass warms up the JIT and the cache
          stats.reset();
          rocks.getPerfContext().reset();
          long cpu0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
          long bytes = 0;
          for (int i = 0; i < reads; i++) {
            byte[] ids = rocks.get(uid, uidKeys.get(random.nextInt(uidKeys.size())));
            byte[] value = rocks.get(entries, java.nio.ByteBuffer.allocate(8).putLong(1 + random.nextLong(maxId)).array());
            bytes += (ids == null ? 0 : ids.length) + (value == null ? 0 : value.length);
          }
          long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0;
          if (pass == 1) {
            PerfContext perf = rocks.getPerfContext();
            System.out.printf("%s %s: %d reads of (uid key, entry): %.1f us CPU per pair, %d value bytes%n",
                args[1], path, reads, cpu / 1e3 / reads, bytes);
            for (TickerType t : new TickerType[] {TickerType.BLOCK_CACHE_INDEX_HIT, TickerType.BLOCK_CACHE_INDEX_MISS,
                TickerType.BLOCK_CACHE_INDEX_BYTES_INSERT, TickerType.BLOCK_CACHE_FILTER_HIT, TickerType.BLOCK_CACHE_FILTER_MISS,
                TickerType.BLOCK_CACHE_FILTER_BYTES_INSERT, TickerType.BLOCK_CACHE_DATA_HIT, TickerType.BLOCK_CACHE_DATA_MISS,
                TickerType.BLOCK_CACHE_DATA_BYTES_INSERT, TickerType.NUMBER_BLOCK_DECOMPRESSED, TickerType.BYTES_DECOMPRESSED_TO}) {
              System.out.printf("  %-32s %12.3f per pair%n", t, stats.getTickerCount(t) / (double) reads);
            }
            System.out.printf("  perf: block reads %.2f (%.0f bytes), index reads %.3f, filter reads %.3f per pair;"
                    + " read %.1f us, checksum %.1f us, decompress %.1f us, index read %.1f us, filter read %.1f us per pair%n",
                perf.getBlockReadCount() / (double) reads, perf.getBlockReadByte() / (double) reads,
                perf.getIndexBlockReadCount() / (double) reads, perf.getFilterBlockReadCount() / (double) reads,
                perf.getBlockReadTime() / 1e3 / reads, perf.getBlockChecksumTime() / 1e3 / reads,
                perf.getBlockDecompressTime() / 1e3 / reads, perf.getReadIndexBlockNanos() / 1e3 / reads,
                perf.getReadFilterBlockNanos() / 1e3 / reads);
          }
        }
        handles.forEach(ColumnFamilyHandle::close);
      }
    }
  }
}
