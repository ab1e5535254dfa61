package io.rockds.storage;

import com.unboundid.ldap.sdk.Entry;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * {@code id2entry}: entry ID (8 bytes, big-endian, so IDs sort numerically) to the entry encoded by
 * {@link EntryCodec}.
 */
public final class Id2Entry extends IdKeyedTree {
  /** Enough for the version byte, the DN's length and almost any DN. */
  private static final int DN_HEAD_BYTES = 512;

  private final EntryCodec codec;

  Id2Entry(RocksDB db, ColumnFamilyHandle handle, String rawPrefix, EntryCodec codec) {
    super(db, handle, "id2entry", rawPrefix + "id2entry");
    this.codec = codec;
  }

  StoredEntry get(long id) throws RocksDBException {
    return get(id, (AttributeProjection) null);
  }

  /** The entry with only the attributes {@code projection} keeps (all when null), or null. */
  StoredEntry get(long id, AttributeProjection projection) throws RocksDBException {
    byte[] value = db.get(handle, Bytes.longKey(id));
    return value == null ? null : codec.decode(value, projection);
  }

  /** The whole entry of a partial one, decoded from the record it was read from. */
  StoredEntry complete(PartialEntry partial) {
    return codec.complete(partial);
  }

  /**
   * The DN of the entry with this ID, or null, without decoding the attributes: only the head of
   * the record is copied out of RocksDB (a 100,000-member group is a 4 MB record).
   */
  String dn(long id) throws RocksDBException {
    byte[] key = Bytes.longKey(id);
    byte[] head = new byte[DN_HEAD_BYTES];
    int size = db.get(handle, key, head);
    if (size == RocksDB.NOT_FOUND) {
      return null;
    }
    String dn = codec.decodeDn(head, Math.min(size, head.length));
    if (dn != null) {
      return dn;
    }
    byte[] value = db.get(handle, key);
    if (value == null) {
      return null;
    }
    dn = codec.decodeDn(value, value.length);
    if (dn == null) {
      throw new IllegalArgumentException("corrupt entry " + id + ": truncated in its DN");
    }
    return dn;
  }

  /** The entry with this ID as seen by {@code options} (e.g. a snapshot), or null. */
  public Entry get(long id, ReadOptions options) throws RocksDBException {
    byte[] value = db.get(handle, options, Bytes.longKey(id));
    return value == null ? null : codec.decode(value);
  }

  /** Decodes a raw record read through {@link #newIterator}. */
  public Entry decode(byte[] value) {
    return codec.decode(value);
  }

  /** Encodes an entry (thread-safe; new attribute descriptions are recorded at once). */
  public byte[] encode(Entry entry) throws RocksDBException {
    return codec.encode(entry, null);
  }

  void put(WriteBatch batch, long id, Entry entry) throws RocksDBException {
    batch.put(handle, Bytes.longKey(id), codec.encode(entry, batch));
  }

  @Override
  public String type() {
    return "ID2Entry";
  }

  @Override
  public String valueToString(byte[] value) {
    return codec.decode(value).toLDIFString();
  }
}
