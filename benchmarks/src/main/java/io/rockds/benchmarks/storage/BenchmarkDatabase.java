package io.rockds.benchmarks.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.AbstractNativeReference;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.UInt64AddOperator;
import org.rocksdb.WriteOptions;

/**
 * A RocksDB database opened with the options a directory server would use: WAL on, LZ4, one shared
 * 256 MB LRU block cache with index and filter blocks charged to it, 10-bit bloom filters. Column
 * family {@code index} holds the attribute index records of every index (keys carry the index name
 * as a prefix instead of one column family per index); {@code counts} holds 8-byte little-endian
 * counters maintained with RocksDB's built-in {@link UInt64AddOperator}.
 */
final class BenchmarkDatabase implements AutoCloseable {

  static final long BLOCK_CACHE_BYTES = 256L << 20;

  static {
    RocksDB.loadLibrary();
  }

  private final Path directory;
  private final List<AbstractNativeReference> resources;
  private final RocksDB db;
  private final ColumnFamilyHandle index;
  private final ColumnFamilyHandle counts;
  private final WriteOptions writeOptions;

  private BenchmarkDatabase(
      Path directory,
      List<AbstractNativeReference> resources,
      RocksDB db,
      ColumnFamilyHandle index,
      ColumnFamilyHandle counts,
      WriteOptions writeOptions) {
    this.directory = directory;
    this.resources = resources;
    this.db = db;
    this.index = index;
    this.counts = counts;
    this.writeOptions = writeOptions;
  }

  /** Opens a new database in a fresh temporary directory, deleted again by {@link #close()}. */
  static BenchmarkDatabase openTemporary(boolean syncWrites) throws RocksDBException {
    Path directory;
    try {
      directory = Files.createTempDirectory("rockds-index-layout-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<AbstractNativeReference> resources = new ArrayList<>();
    LRUCache cache = track(resources, new LRUCache(BLOCK_CACHE_BYTES));
    BloomFilter bloom = track(resources, new BloomFilter(10));
    BlockBasedTableConfig table =
        new BlockBasedTableConfig()
            .setBlockCache(cache)
            .setFilterPolicy(bloom)
            .setCacheIndexAndFilterBlocks(true)
            .setPinL0FilterAndIndexBlocksInCache(true);
    ColumnFamilyOptions indexOptions =
        track(
            resources,
            new ColumnFamilyOptions()
                .setTableFormatConfig(table)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setLevelCompactionDynamicLevelBytes(true));
    UInt64AddOperator add = track(resources, new UInt64AddOperator());
    ColumnFamilyOptions countOptions =
        track(
            resources,
            new ColumnFamilyOptions()
                .setTableFormatConfig(table)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setLevelCompactionDynamicLevelBytes(true)
                .setMergeOperator(add));
    DBOptions dbOptions =
        track(
            resources,
            new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2)
                .setBytesPerSync(1 << 20));
    WriteOptions writeOptions = track(resources, new WriteOptions().setSync(syncWrites));
    List<ColumnFamilyDescriptor> descriptors =
        List.of(
            new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, indexOptions),
            new ColumnFamilyDescriptor("index".getBytes(StandardCharsets.US_ASCII), indexOptions),
            new ColumnFamilyDescriptor("counts".getBytes(StandardCharsets.US_ASCII), countOptions));
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    RocksDB db = RocksDB.open(dbOptions, directory.toString(), descriptors, handles);
    // Closed in reverse order: handles before the database, the database before its options.
    resources.add(db);
    resources.addAll(handles);
    return new BenchmarkDatabase(
        directory, resources, db, handles.get(1), handles.get(2), writeOptions);
  }

  RocksDB db() {
    return db;
  }

  ColumnFamilyHandle index() {
    return index;
  }

  ColumnFamilyHandle counts() {
    return counts;
  }

  WriteOptions writeOptions() {
    return writeOptions;
  }

  /** Flushes memtables and fully compacts both column families so that reads hit SST files. */
  void compact() throws RocksDBException {
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush, List.of(index, counts));
    }
    db.compactRange(index);
    db.compactRange(counts);
  }

  /** Sum of live SST file sizes of a column family, in bytes. */
  long sstBytes(ColumnFamilyHandle family) throws RocksDBException {
    return Long.parseLong(db.getProperty(family, "rocksdb.total-sst-files-size"));
  }

  /** Approximate number of keys of a column family (RocksDB's own estimate). */
  long estimatedKeys(ColumnFamilyHandle family) throws RocksDBException {
    return Long.parseLong(db.getProperty(family, "rocksdb.estimate-num-keys"));
  }

  @Override
  public void close() {
    for (int i = resources.size() - 1; i >= 0; i--) {
      resources.get(i).close();
    }
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + directory, e);
    }
  }

  private static <T extends AbstractNativeReference> T track(
      List<AbstractNativeReference> resources, T resource) {
    resources.add(resource);
    return resource;
  }
}
