package io.rockds.benchmarks.storage;

import java.util.List;
import org.rocksdb.RocksDBException;

/** One way of storing attribute index records (normalized key → entry IDs) in RocksDB. */
interface IndexLayout {

  /** Adds a new entry's ID under each of its (distinct) index keys, in one atomic write batch. */
  void addEntry(long id, List<byte[]> keys) throws RocksDBException;

  /** Writes a key's final state at once, as an importer would; used to build read fixtures. */
  void load(byte[] key, long[] sortedIds) throws RocksDBException;

  /** Reads one key and decodes its IDs into the set type a search would intersect. */
  IndexRead read(byte[] key) throws RocksDBException;

  /** Scans what it must to list over-limit keys and keys near the limit, as backendstat does. */
  EntryLimitReport entryLimitReport() throws RocksDBException;
}
