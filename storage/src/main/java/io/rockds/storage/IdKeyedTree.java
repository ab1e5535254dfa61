package io.rockds.storage;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * A tree keyed by entry ID, 8 bytes big-endian so that IDs sort numerically: {@code id2entry} and
 * {@code id2childrencount}.
 */
public abstract class IdKeyedTree extends Tree {
  IdKeyedTree(RocksDB db, ColumnFamilyHandle handle, String name, String rawName) {
    super(db, handle, name, rawName);
  }

  /** The entry ID of a raw key. */
  public static long idOf(byte[] key) {
    return Bytes.readLongKey(key, 0);
  }

  void delete(WriteBatch batch, long id) throws RocksDBException {
    batch.delete(handle, Bytes.longKey(id));
  }

  @Override
  public final String keyToString(byte[] key) {
    return Long.toString(idOf(key));
  }
}
