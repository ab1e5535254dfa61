package io.rockds.storage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SortedMap;
import java.util.TreeMap;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * {@code state}: small records about the container, keyed by readable strings.
 *
 * <pre>
 *   trusted/&lt;tree&gt;              1 byte: 1 trusted, 0 untrusted (needs rebuild; searches skip it)
 *   limit/&lt;tree&gt;                8 bytes: the index-entry-limit the records were built with
 *   entry-count                   uint64 LE, merged (+1 / -1) in each add / delete batch
 *   overlimit/&lt;tree&gt; 0x00 &lt;key&gt;  uint64 LE: exact ID count of an over-limit index key
 *   adesc/&lt;description&gt;         8-byte attribute description id ({@link AttributeDictionary})
 * </pre>
 *
 * The counters use RocksDB's built-in {@code UInt64AddOperator} (set on this column family), so
 * counting an add under a key already over its entry limit is a blind merge with no lock.
 */
public final class BackendState extends Tree {
  private static final byte[] ENTRY_COUNT = "entry-count".getBytes(StandardCharsets.UTF_8);

  BackendState(RocksDB db, ColumnFamilyHandle handle, String rawPrefix) {
    super(db, handle, "state", rawPrefix + "state");
  }

  private static byte[] trustKey(String tree) {
    return ("trusted/" + tree).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] overLimitPrefix(String tree) {
    return ("overlimit/" + tree + "\0").getBytes(StandardCharsets.UTF_8);
  }

  static byte[] overLimitKey(String tree, byte[] indexKey) {
    return Bytes.concat(overLimitPrefix(tree), indexKey);
  }

  /** Null when the tree has never been marked either way. */
  Boolean isTrusted(String tree) throws RocksDBException {
    byte[] value = db.get(handle, trustKey(tree));
    return value == null ? null : value[0] == 1;
  }

  void setTrusted(String tree, boolean trusted) throws RocksDBException {
    db.put(handle, trustKey(tree), new byte[] {(byte) (trusted ? 1 : 0)});
  }

  /** The entry limit the tree's records were written with, or null if never recorded. */
  Integer storedEntryLimit(String tree) throws RocksDBException {
    byte[] value = db.get(handle, ("limit/" + tree).getBytes(StandardCharsets.UTF_8));
    return value == null ? null : (int) Bytes.readLongKey(value, 0);
  }

  void storeEntryLimit(String tree, int limit) throws RocksDBException {
    db.put(handle, ("limit/" + tree).getBytes(StandardCharsets.UTF_8), Bytes.longKey(limit));
  }

  long entryCount() throws RocksDBException {
    return Bytes.readCounter(db.get(handle, ENTRY_COUNT));
  }

  /** The entry counter as seen by {@code options} (e.g. a snapshot). */
  public long entryCount(ReadOptions options) throws RocksDBException {
    return Bytes.readCounter(db.get(handle, options, ENTRY_COUNT));
  }

  /**
   * The exact count kept for every over-limit key of {@code tree}, in key order, as seen by {@code
   * options}. A count may exist for a key whose record is no longer over the limit only if
   * something is inconsistent; the verifier reports that.
   */
  public SortedMap<IndexKey, Long> overLimitCounts(String tree, ReadOptions options) {
    byte[] prefix = overLimitPrefix(tree);
    SortedMap<IndexKey, Long> counts = new TreeMap<>();
    try (RocksIterator it = db.newIterator(handle, options)) {
      for (it.seek(prefix); it.isValid(); it.next()) {
        byte[] key = it.key();
        if (!Arrays.equals(key, 0, Math.min(key.length, prefix.length), prefix, 0, prefix.length)) {
          break;
        }
        counts.put(
            new IndexKey(Arrays.copyOfRange(key, prefix.length, key.length)),
            Bytes.readCounter(it.value()));
      }
    }
    return counts;
  }

  void addEntryCount(WriteBatch batch, long delta) throws RocksDBException {
    batch.merge(handle, ENTRY_COUNT, Bytes.counter(delta));
  }

  void setEntryCount(long count) throws RocksDBException {
    db.put(handle, ENTRY_COUNT, Bytes.counter(count));
  }

  /** The exact entry count kept for an over-limit key (0 when the key is not over the limit). */
  public long overLimitCount(String tree, byte[] indexKey) throws RocksDBException {
    return Bytes.readCounter(db.get(handle, overLimitKey(tree, indexKey)));
  }

  void setOverLimitCount(WriteBatch batch, String tree, byte[] indexKey, long count)
      throws RocksDBException {
    batch.put(handle, overLimitKey(tree, indexKey), Bytes.counter(count));
  }

  void addOverLimitCount(WriteBatch batch, String tree, byte[] indexKey, long delta)
      throws RocksDBException {
    batch.merge(handle, overLimitKey(tree, indexKey), Bytes.counter(delta));
  }

  void clearOverLimitCount(WriteBatch batch, String tree, byte[] indexKey) throws RocksDBException {
    batch.delete(handle, overLimitKey(tree, indexKey));
  }

  /** Removes every over-limit count of one tree (before a rebuild). */
  void clearOverLimitCounts(String tree) throws RocksDBException {
    byte[] prefix = overLimitPrefix(tree);
    db.deleteRange(handle, prefix, Bytes.prefixEnd(prefix));
  }

  @Override
  public String type() {
    return "State";
  }

  @Override
  public String keyToString(byte[] key) {
    StringBuilder sb = new StringBuilder();
    for (byte b : key) {
      sb.append(b >= 0x20 && b < 0x7f ? (char) b : String.format("\\%02x", b & 0xFF));
    }
    return sb.toString();
  }

  @Override
  public String valueToString(byte[] value) {
    return value.length == 8 ? Long.toString(Bytes.readCounter(value)) : Integer.toString(value[0]);
  }
}
