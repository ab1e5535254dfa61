package io.rockds.storage;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The memtables' bound of a serving backend, following its table files as they grow or shrink: an
 * eighth of them, at least a floor, at most the backend's share ({@link
 * MemoryBudget#memtablesFor}).
 *
 * <p>Why here and not in RocksDB: the {@code WriteBufferManager} that bounds all memtables together
 * takes its size once, when created (RocksJava 11 has no setter, and {@code db_write_buffer_size}
 * is not a mutable option), so a bound taken at start stayed small on a server that was started
 * nearly empty and then loaded over LDAP. The manager keeps the share as the hard bound; this
 * flushes the largest memtable earlier, once the mutable memtables reach seven eighths of the bound
 * derived from the table files now (the manager's own trigger, applied to the smaller bound).
 *
 * <p>Cost: after each batch one atomic add; every {@link #CHECKS_PER_BOUND}th of the bound written,
 * two summed RocksDB properties; a flush (a memtable switch, the writing done by a background job)
 * when over the bound.
 */
final class MemtableBound implements AutoCloseable {
  /** How often the memtables are checked: each time this fraction of the bound was written. */
  static final int CHECKS_PER_BOUND = 16;

  private final RocksDB db;
  private final List<ColumnFamilyHandle> trees;
  private final Object treesLock;
  private final long floorBytes;
  private final long shareBytes;

  /** Only switches the memtable: a client's write neither waits for the flush nor for a stall. */
  private final FlushOptions switchOnly =
      new FlushOptions().setWaitForFlush(false).setAllowWriteStall(true);

  private final AtomicLong writtenSinceCheck = new AtomicLong();
  private final AtomicBoolean checking = new AtomicBoolean();
  private volatile long bytes;

  /**
   * @param trees the backend's column families, guarded by {@code treesLock} (an index may be
   *     dropped meanwhile)
   */
  MemtableBound(
      RocksDB db,
      List<ColumnFamilyHandle> trees,
      Object treesLock,
      long floorBytes,
      long shareBytes) {
    this.db = db;
    this.trees = trees;
    this.treesLock = treesLock;
    this.floorBytes = floorBytes;
    this.shareBytes = shareBytes;
    this.bytes = derive();
  }

  /** The bound in effect. */
  long bytes() {
    return bytes;
  }

  /**
   * A batch of {@code batchBytes} was written. Never fails the write: should RocksDB refuse a
   * property or a flush, the manager's bound (the share) still holds.
   */
  void written(long batchBytes) {
    if (writtenSinceCheck.addAndGet(batchBytes) < bytes / CHECKS_PER_BOUND
        || !checking.compareAndSet(false, true)) {
      return;
    }
    try {
      writtenSinceCheck.set(0);
      bytes = derive();
      if (db.getAggregatedLongProperty("rocksdb.cur-size-active-mem-table") > bytes / 8 * 7) {
        flushLargest();
      }
    } catch (RocksDBException e) {
      // Left to the WriteBufferManager's bound: see above.
    } finally {
      checking.set(false);
    }
  }

  /**
   * From the live table files: those of the current trees, not the inputs of a compaction running;
   * the share should RocksDB not tell.
   */
  private long derive() {
    try {
      return MemoryBudget.memtablesFor(
          db.getAggregatedLongProperty("rocksdb.live-sst-files-size"), floorBytes, shareBytes);
    } catch (RocksDBException e) {
      return shareBytes;
    }
  }

  private void flushLargest() throws RocksDBException {
    synchronized (treesLock) {
      ColumnFamilyHandle largest = null;
      long largestBytes = 0;
      for (ColumnFamilyHandle tree : trees) {
        long size = db.getLongProperty(tree, "rocksdb.cur-size-active-mem-table");
        if (size > largestBytes) {
          largest = tree;
          largestBytes = size;
        }
      }
      if (largest != null) {
        db.flush(switchOnly, largest);
      }
    }
  }

  @Override
  public void close() {
    switchOnly.close();
  }
}
