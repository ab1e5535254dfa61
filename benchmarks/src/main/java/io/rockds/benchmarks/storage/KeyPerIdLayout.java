package io.rockds.benchmarks.storage;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;

/**
 * Layout 2, "key per (value, ID)".
 *
 * <pre>
 * index  : key = normalized index key, 0x00, 8-byte big-endian ID   value = empty
 * counts : key = normalized index key                                value = UInt64 ID count
 *                                                                    (only when counting is enabled)
 * </pre>
 *
 * <p>Normalized keys never contain 0x00, so all IDs of a key form one contiguous range that sorts
 * by ID. Writes are blind puts (plus a blind counter merge): no read, no lock. A read is a prefix
 * scan stopped after limit+1 IDs; with counting on, one counter {@code get} first answers "over the
 * limit" without touching the range. Deleting IDs brings a key back under the limit by itself,
 * because every ID stays stored.
 */
final class KeyPerIdLayout implements IndexLayout {

  private static final int ID_BYTES = 8;

  private final BenchmarkDatabase database;
  private final RocksDB db;
  private final int limit;
  private final boolean counted;

  KeyPerIdLayout(BenchmarkDatabase database, int limit, boolean counted) {
    this.database = database;
    this.db = database.db();
    this.limit = limit;
    this.counted = counted;
  }

  @Override
  public void addEntry(long id, List<byte[]> keys) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      for (byte[] key : keys) {
        putId(batch, key, id);
        if (counted) {
          batch.merge(database.counts(), key, UInt64Operand.PLUS_ONE);
        }
      }
      db.write(database.writeOptions(), batch);
    }
  }

  @Override
  public void load(byte[] key, long[] sortedIds) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      for (long id : sortedIds) {
        putId(batch, key, id);
      }
      if (counted) {
        batch.merge(database.counts(), key, UInt64Operand.encode(sortedIds.length));
      }
      db.write(database.writeOptions(), batch);
    }
  }

  private void putId(WriteBatch batch, byte[] key, long id) throws RocksDBException {
    byte[] record = Arrays.copyOf(key, key.length + 1 + ID_BYTES);
    for (int i = 0; i < ID_BYTES; i++) {
      record[record.length - 1 - i] = (byte) (id >>> (8 * i));
    }
    batch.put(database.index(), record, new byte[0]);
  }

  @Override
  public IndexRead read(byte[] key) throws RocksDBException {
    if (counted) {
      byte[] count = db.get(database.counts(), key);
      if (count != null && UInt64Operand.decode(count) > limit) {
        return IndexRead.OverLimit.INSTANCE;
      }
    }
    byte[] start = Arrays.copyOf(key, key.length + 1);
    byte[] end = Arrays.copyOf(key, key.length + 1);
    end[key.length] = 1;
    long[] ids = new long[16];
    int size = 0;
    // One reusable buffer instead of a fresh byte[] per record: the scan is JNI-bound.
    ByteBuffer record = ByteBuffer.allocate(key.length + 1 + ID_BYTES);
    try (Slice upperBound = new Slice(end);
        ReadOptions options = new ReadOptions().setIterateUpperBound(upperBound);
        RocksIterator it = db.newIterator(database.index(), options)) {
      for (it.seek(start); it.isValid(); it.next()) {
        if (size == limit) {
          return IndexRead.OverLimit.INSTANCE;
        }
        if (size == ids.length) {
          ids = Arrays.copyOf(ids, size * 2);
        }
        record.clear();
        it.key(record);
        ids[size++] = record.getLong(record.limit() - ID_BYTES);
      }
    }
    return new IndexRead.Ids(Arrays.copyOf(ids, size));
  }

  /**
   * With counting on, one pass over the counters; without it, one pass over every (key, ID) record
   * of the index, counting the run of IDs under each key.
   */
  @Override
  public EntryLimitReport entryLimitReport() {
    EntryLimitReport.Tally tally = new EntryLimitReport.Tally(limit);
    if (counted) {
      try (RocksIterator it = db.newIterator(database.counts())) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          tally.scanned();
          tally.key(it.key(), UInt64Operand.decode(it.value()));
        }
      }
      return tally.result();
    }
    byte[] runKey = null;
    long runLength = 0;
    try (RocksIterator it = db.newIterator(database.index())) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        tally.scanned();
        byte[] record = it.key();
        byte[] key = Arrays.copyOf(record, record.length - 1 - ID_BYTES);
        if (runKey != null && !Arrays.equals(runKey, key)) {
          tally.key(runKey, runLength);
          runLength = 0;
        }
        runKey = key;
        runLength++;
      }
    }
    if (runKey != null) {
      tally.key(runKey, runLength);
    }
    return tally.result();
  }
}
