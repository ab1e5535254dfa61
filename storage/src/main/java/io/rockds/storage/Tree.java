package io.rockds.storage;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * One column family of an entry container, able to describe its own keys and values: that is
 * what makes backendstat's list, dump and status commands generic over every tree.
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
