package io.rockds.benchmarks.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * Layout 1, OpenDJ's "ID list per key".
 *
 * <pre>
 * index  : key = normalized index key            value = encoded ID set ({@link IdSetCodec}, at most
 *                                                        limit IDs) | 0xFF (over the limit)
 * counts : key = normalized index key            value = UInt64 ID count, only for over-limit keys
 *                                                        and only when counting is enabled
 * </pre>
 *
 * <p>An add first reads all of the entry's keys without locking. Keys already over the limit are
 * hot (every entry has {@code objectClass=top}) and are left alone: no lock, no rewrite, at most a
 * blind counter merge. The other keys' lock stripes are taken, the keys re-read (another writer may
 * have changed them), rewritten into one {@link WriteBatch}, and the stripes released after the
 * commit. A set passing the limit becomes the one-byte marker and its IDs are gone for good.
 */
final class IdListLayout implements IndexLayout {

  static final byte[] OVER_LIMIT = {(byte) 0xFF};

  private final BenchmarkDatabase database;
  private final RocksDB db;
  private final IdSetCodec codec;
  private final int limit;
  private final boolean countOverLimit;
  private final LockStripes stripes = new LockStripes(1024);

  IdListLayout(BenchmarkDatabase database, IdSetCodec codec, int limit, boolean countOverLimit) {
    this.database = database;
    this.db = database.db();
    this.codec = codec;
    this.limit = limit;
    this.countOverLimit = countOverLimit;
  }

  @Override
  public void addEntry(long id, List<byte[]> keys) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      List<byte[]> definedKeys = new ArrayList<>(keys.size());
      List<byte[]> unlocked = multiGet(keys);
      for (int i = 0; i < keys.size(); i++) {
        if (isOverLimit(unlocked.get(i))) {
          countOneMore(batch, keys.get(i));
        } else {
          definedKeys.add(keys.get(i));
        }
      }
      int[] locked = stripes.lock(definedKeys);
      try {
        List<byte[]> current = multiGet(definedKeys);
        for (int i = 0; i < definedKeys.size(); i++) {
          addId(batch, definedKeys.get(i), current.get(i), id);
        }
        db.write(database.writeOptions(), batch);
      } finally {
        stripes.unlock(locked);
      }
    }
  }

  private void addId(WriteBatch batch, byte[] key, byte[] value, long id) throws RocksDBException {
    if (isOverLimit(value)) {
      countOneMore(batch, key);
      return;
    }
    int size = value == null ? 0 : codec.size(value);
    if (size + 1 > limit) {
      batch.put(database.index(), key, OVER_LIMIT);
      if (countOverLimit) {
        batch.merge(database.counts(), key, UInt64Operand.encode(size + 1L));
      }
    } else {
      batch.put(database.index(), key, codec.add(value, id));
    }
  }

  private void countOneMore(WriteBatch batch, byte[] key) throws RocksDBException {
    if (countOverLimit) {
      batch.merge(database.counts(), key, UInt64Operand.PLUS_ONE);
    }
  }

  @Override
  public void load(byte[] key, long[] sortedIds) throws RocksDBException {
    try (WriteBatch batch = new WriteBatch()) {
      if (sortedIds.length > limit) {
        batch.put(database.index(), key, OVER_LIMIT);
        if (countOverLimit) {
          batch.merge(database.counts(), key, UInt64Operand.encode(sortedIds.length));
        }
      } else {
        batch.put(database.index(), key, codec.encode(sortedIds));
      }
      db.write(database.writeOptions(), batch);
    }
  }

  @Override
  public IndexRead read(byte[] key) throws RocksDBException {
    byte[] value = db.get(database.index(), key);
    if (value == null) {
      return new IndexRead.Ids(new long[0]);
    }
    return isOverLimit(value) ? IndexRead.OverLimit.INSTANCE : codec.decode(value);
  }

  /** One pass over the index records, reading each set's size from its header. */
  @Override
  public EntryLimitReport entryLimitReport() {
    EntryLimitReport.Tally tally = new EntryLimitReport.Tally(limit);
    try (RocksIterator it = db.newIterator(database.index())) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        tally.scanned();
        byte[] value = it.value();
        if (isOverLimit(value)) {
          tally.overLimit(it.key());
        } else {
          tally.key(it.key(), codec.size(value));
        }
      }
    }
    return tally.result();
  }

  private List<byte[]> multiGet(List<byte[]> keys) throws RocksDBException {
    if (keys.isEmpty()) {
      return List.of(); // RocksJava asserts on an empty multiGet
    }
    List<ColumnFamilyHandle> families = Collections.nCopies(keys.size(), database.index());
    return db.multiGetAsList(families, keys);
  }

  private static boolean isOverLimit(byte[] value) {
    return value != null && value.length == 1;
  }
}
