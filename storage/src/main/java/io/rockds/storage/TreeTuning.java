package io.rockds.storage;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.UInt64AddOperator;

/**
 * The RocksDB layout of each kind of tree, and the block cache they share: what keeps a read as
 * cheap at 10M entries as at 100k.
 *
 * <p>Why: a 1M-entry import wrote {@code id2entry} as one 1.8 GB SST whose index (2.96 MB) was one
 * block, cached in a 128 MB LRU cache split into 64 shards of 2 MB with no high-priority pool: a
 * block larger than its shard was evicted as soon as it was inserted, so every lookup read 1.4 MB
 * and decompressed 2.98 MB again, 4.7 ms of CPU per search instead of 0.18 (benchmarks/RESULTS.md,
 * BlockCacheProbe). Hence:
 *
 * <ul>
 *   <li>two-level (partitioned) index and filter blocks of {@link #METADATA_BLOCK_BYTES}, whose top
 *       level is pinned, so no lookup needs a metadata block larger than a few KiB;
 *   <li>index and filter blocks cached with high priority, in a pool of half the cache that data
 *       blocks cannot flush, and few shards ({@link #blockCache}) so that a large block (a group of
 *       100,000 members is one 4 MB record) fits its shard;
 *   <li>SST files of at most {@link #TARGET_FILE_BYTES} from compaction and import alike ({@link
 *       RollingSstWriter}), so that no single file's metadata grows with the data;
 *   <li>{@code id2entry}, read once per candidate entry: 4 KiB blocks (one or two entries each, so
 *       a cache miss reads and checks 4 KiB, not 16) compressed with LZ4 on every level (with ZSTD
 *       at the bottom every read decompressed a 16 KiB block; 4 KiB LZ4 blocks of incompressible
 *       photos are stored raw, for 16 % more disk), and no bloom filter on the last level (every
 *       lookup is of an existing ID, the filter only cost a probe);
 *   <li>the blocks of a table file a compaction replaced leave the cache with the file ({@link
 *       #uncaching}).
 * </ul>
 */
final class TreeTuning {
  /** Upper bound of an SST file written by compaction or by an import. */
  static final long TARGET_FILE_BYTES = 64L << 20;

  /**
   * Memtables allocate in blocks of this size (RocksDB's default is 1 MiB): a memtable holds at
   * least one block as soon as it is written, so with 1 MiB blocks the twenty-odd trees an add
   * writes held 20 MiB of memtables whatever they contained, most of a small backend's memtable
   * bound ({@link MemtableBound}).
   */
  static final long ARENA_BLOCK_BYTES = 64L << 10;

  /** Size of one index or filter partition. */
  static final long METADATA_BLOCK_BYTES = 4096;

  /** The share of the block cache kept for index and filter blocks. */
  static final double HIGH_PRIORITY_RATIO = 0.5;

  /** Smallest shard of the block cache: larger than any block but the rarest giant record. */
  static final long MIN_SHARD_BYTES = 32L << 20;

  /**
   * How hard a replaced table file's blocks are looked for in the cache (RocksDB's suggested value:
   * it stops once most lookups find nothing).
   */
  static final int UNCACHE_AGGRESSIVENESS = 300;

  /** The kinds of tree, each with its own layout. */
  enum Kind {
    /** {@code id2entry}: large values read by ID. */
    ENTRIES,
    /**
     * {@code id2values}: the values stored apart, photos among them (1.5 kB each, read one per
     * entry): 4 KiB blocks as in {@code id2entry}, so that a photo read from disk costs 4 KiB, not
     * 16; the bloom filter kept, since a compare asks for values the entry may not hold.
     */
    VALUES,
    /** {@code dn2id} and the attribute indexes: small keys and values, often absent keys. */
    KEYS,
    /** {@code id2childrencount} and {@code state}: counters merged by addition. */
    COUNTERS
  }

  private TreeTuning() {}

  static ColumnFamilyDescriptor descriptor(String name, ColumnFamilyOptions options) {
    return new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), options);
  }

  /** The block cache: few shards, and a high-priority pool for index and filter blocks. */
  static LRUCache blockCache(long bytes) {
    return new LRUCache(bytes, shardBits(bytes), false, HIGH_PRIORITY_RATIO);
  }

  /**
   * log2 of the number of shards: as many as keep each at least {@link #MIN_SHARD_BYTES}, at most
   * 64.
   */
  static int shardBits(long cacheBytes) {
    int bits = 0;
    while (bits < 6 && (cacheBytes >> (bits + 1)) >= MIN_SHARD_BYTES) {
      bits++;
    }
    return bits;
  }

  static ColumnFamilyOptions options(Kind kind, String compression, Cache cache) {
    boolean entries = kind == Kind.ENTRIES;
    BlockBasedTableConfig table =
        new BlockBasedTableConfig()
            .setBlockCache(cache)
            .setFilterPolicy(new BloomFilter(10, false))
            .setIndexType(IndexType.kTwoLevelIndexSearch)
            .setPartitionFilters(true)
            .setMetadataBlockSize(METADATA_BLOCK_BYTES)
            .setCacheIndexAndFilterBlocks(true)
            .setCacheIndexAndFilterBlocksWithHighPriority(true)
            .setPinTopLevelIndexAndFilter(true)
            .setPinL0FilterAndIndexBlocksInCache(true)
            .setBlockSize(entries || kind == Kind.VALUES ? 4 * 1024 : 16 * 1024)
            .setFormatVersion(6);
    ColumnFamilyOptions options =
        uncaching()
            .setTableFormatConfig(table)
            .setTargetFileSizeBase(TARGET_FILE_BYTES)
            .setArenaBlockSize(ARENA_BLOCK_BYTES)
            .setLevelCompactionDynamicLevelBytes(true)
            .setOptimizeFiltersForHits(entries);
    compress(options, entries && compression.equals("lz4-zstd") ? "lz4" : compression);
    if (kind == Kind.COUNTERS) {
      options.setMergeOperator(new UInt64AddOperator());
    }
    return options;
  }

  /**
   * Options under which the blocks of a table file that a compaction replaced leave the block cache
   * with the file ({@code uncache_aggressiveness}, set by name: RocksJava has no setter). Without
   * it they stayed until evicted, which a cache larger than the data never does: after each
   * compaction the cache held the old blocks beside the new ones.
   */
  private static ColumnFamilyOptions uncaching() {
    Properties properties = new Properties();
    properties.setProperty("uncache_aggressiveness", Integer.toString(UNCACHE_AGGRESSIVENESS));
    ColumnFamilyOptions options = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(properties);
    if (options == null) {
      throw new IllegalStateException("RocksDB does not know uncache_aggressiveness");
    }
    return options;
  }

  private static void compress(ColumnFamilyOptions options, String compression) {
    switch (compression) {
      case "none" -> options.setCompressionType(CompressionType.NO_COMPRESSION);
      case "lz4" -> options.setCompressionType(CompressionType.LZ4_COMPRESSION);
      case "zstd" -> options.setCompressionType(CompressionType.ZSTD_COMPRESSION);
      case "lz4-zstd" ->
          options
              .setCompressionType(CompressionType.LZ4_COMPRESSION)
              .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION);
      default ->
          throw new IllegalArgumentException(
              "compression: " + compression + " (expected: lz4-zstd, lz4, zstd or none)");
    }
  }

  /** The kind of the tree named {@code /<base DN>/<tree>}. */
  static Kind kindOf(String columnFamily) {
    if (columnFamily.endsWith("/state") || columnFamily.endsWith("/id2childrencount")) {
      return Kind.COUNTERS;
    }
    if (columnFamily.endsWith("/id2values")) {
      return Kind.VALUES;
    }
    return columnFamily.endsWith("/id2entry") ? Kind.ENTRIES : Kind.KEYS;
  }
}
