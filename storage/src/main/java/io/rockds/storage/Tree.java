package io.rockds.storage;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * One column family of an entry container, able to describe its own keys and values: that is what
 * makes backendstat's list, dump and status commands generic over every tree.
 */
public abstract class Tree {
  final RocksDB db;
  final ColumnFamilyHandle handle;
  private final String name;
  private final String rawName;

  Tree(RocksDB db, ColumnFamilyHandle handle, String name, String rawName) {
    this.db = db;
    this.handle = handle;
    this.name = name;
    this.rawName = rawName;
  }

  /** The tree's name inside its container, e.g. {@code sn.caseIgnoreMatch}. */
  public String name() {
    return name;
  }

  /** The column family name, e.g. {@code /dc=com,dc=example/sn.caseIgnoreMatch}. */
  public String rawName() {
    return rawName;
  }

  /** The kind of tree as backendstat prints it: DN2ID, ID2Entry, MatchingRuleIndex, ... */
  public abstract String type();

  public abstract String keyToString(byte[] key);

  public abstract String valueToString(byte[] value);

  /** An iterator over the tree's records; the caller closes it. */
  public RocksIterator newIterator() {
    return db.newIterator(handle);
  }

  /** An iterator reading with {@code options} (e.g. a snapshot); the caller closes both. */
  public RocksIterator newIterator(ReadOptions options) {
    return db.newIterator(handle, options);
  }

  /** Deletes every record: a range delete plus the last key (no byte string bounds every key). */
  void clear() throws RocksDBException {
    try (RocksIterator it = newIterator()) {
      it.seekToFirst();
      if (!it.isValid()) {
        return;
      }
      byte[] first = it.key();
      it.seekToLast();
      byte[] last = it.key();
      db.deleteRange(handle, first, last);
      db.delete(handle, last);
    }
  }

  /** Exact number of records (a full key scan). */
  public long recordCount() {
    long n = 0;
    try (RocksIterator it = newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        n++;
      }
    }
    return n;
  }

  ColumnFamilyHandle handle() {
    return handle;
  }
}
