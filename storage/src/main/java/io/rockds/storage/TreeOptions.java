package io.rockds.storage;

import java.nio.charset.StandardCharsets;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.UInt64AddOperator;

/**
 * How a backend's trees are laid out in RocksDB column families: block-based tables with bloom
 * filters in the shared block cache, the configured compression, and a 64-bit add merge operator
 * for the counter trees ({@code state}, {@code id2childrencount}).
 */
final class TreeOptions {
  private TreeOptions() {}

  static boolean isCounterTree(String name) {
    return name.endsWith("/state") || name.endsWith("/id2childrencount");
  }

  static ColumnFamilyDescriptor descriptor(String name, ColumnFamilyOptions options) {
    return new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), options);
  }

  static ColumnFamilyOptions columnFamilyOptions(BackendSettings settings, LRUCache cache, boolean counters) {
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockCache(cache)
        .setFilterPolicy(new BloomFilter(10, false))
        .setCacheIndexAndFilterBlocks(true)
        .setPinL0FilterAndIndexBlocksInCache(true)
        .setBlockSize(16 * 1024)
        .setFormatVersion(5);
    ColumnFamilyOptions options = new ColumnFamilyOptions()
        .setTableFormatConfig(table)
        .setLevelCompactionDynamicLevelBytes(true);
    switch (settings.compression()) {
      case "none" -> options.setCompressionType(CompressionType.NO_COMPRESSION);
      case "lz4" -> options.setCompressionType(CompressionType.LZ4_COMPRESSION);
      case "zstd" -> options.setCompressionType(CompressionType.ZSTD_COMPRESSION);
      case "lz4-zstd" -> options.setCompressionType(CompressionType.LZ4_COMPRESSION)
          .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION);
      default -> throw new IllegalArgumentException("compression: " + settings.compression()
          + " (expected: lz4-zstd, lz4, zstd or none)");
    }
    if (counters) {
      options.setMergeOperator(new UInt64AddOperator());
    }
    return options;
  }
}
