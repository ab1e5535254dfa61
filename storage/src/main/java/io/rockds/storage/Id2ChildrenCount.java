package io.rockds.storage;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * {@code id2childrencount}: parent entry ID (8 bytes, big-endian) to its number of children, a
 * little-endian uint64 maintained with RocksDB's built-in {@code UInt64AddOperator}. Adding a child
 * is a blind merge of +1, so thousands of concurrent adds under one parent never contend on a
 * read-modify-write. Backs numSubordinates, hasSubordinates and the non-leaf delete check.
 */
public final class Id2ChildrenCount extends IdKeyedTree {

  Id2ChildrenCount(RocksDB db, ColumnFamilyHandle handle, String rawPrefix) {
    super(db, handle, "id2childrencount", rawPrefix + "id2childrencount");
  }

  long get(long parentId) throws RocksDBException {
    return Bytes.readCounter(db.get(handle, Bytes.longKey(parentId)));
  }

  /** The child count of a raw record. */
  public static long countOf(byte[] value) {
    return Bytes.readCounter(value);
  }

  void add(WriteBatch batch, long parentId, long delta) throws RocksDBException {
    batch.merge(handle, Bytes.longKey(parentId), Bytes.counter(delta));
  }

  @Override
  public String type() {
    return "ID2ChildrenCount";
  }

  @Override
  public String valueToString(byte[] value) {
    return Long.toString(Bytes.readCounter(value));
  }
}
