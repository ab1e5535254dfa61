package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;

/**
 * {@code dn2id}: the {@link DnKeys} key of every entry's DN to its entry ID (8 bytes, big-endian).
 * Because a subtree is one key range, subtree scope, one-level scope (the range with grandchildren
 * skipped by seeking past them) and subtree moves need no other structure.
 */
public final class Dn2Id extends Tree {
  private final ReadOptions memoryOnly;

  /**
   * @param memoryOnly options reading the block cache and memtables only, for {@link
   *     ReadFrom#MEMORY}; the backend owns and closes them
   */
  Dn2Id(RocksDB db, ColumnFamilyHandle handle, String rawPrefix, ReadOptions memoryOnly) {
    super(db, handle, "dn2id", rawPrefix + "dn2id");
    this.memoryOnly = memoryOnly;
  }

  /** The ID of {@code dn}, or -1. */
  long get(DN dn) throws RocksDBException {
    return get(dn, ReadFrom.ANYWHERE);
  }

  /** The ID of {@code dn}, or -1; read from memory only if {@code from} says so. */
  long get(DN dn, ReadFrom from) throws RocksDBException {
    byte[] key = DnKeys.key(dn);
    byte[] value = from == ReadFrom.MEMORY ? db.get(handle, memoryOnly, key) : db.get(handle, key);
    return value == null ? -1 : Bytes.readLongKey(value, 0);
  }

  /** The ID of {@code dn} as seen by {@code options} (e.g. a snapshot), or -1. */
  public long get(DN dn, ReadOptions options) throws RocksDBException {
    byte[] value = db.get(handle, options, DnKeys.key(dn));
    return value == null ? -1 : Bytes.readLongKey(value, 0);
  }

  /** The entry ID a raw record maps its DN key to. */
  public static long idOf(byte[] value) {
    return Bytes.readLongKey(value, 0);
  }

  void put(WriteBatch batch, DN dn, long id) throws RocksDBException {
    batch.put(handle, DnKeys.key(dn), Bytes.longKey(id));
  }

  void delete(WriteBatch batch, DN dn) throws RocksDBException {
    batch.delete(handle, DnKeys.key(dn));
  }

  /** Visits the IDs of {@code base}'s strict descendants in key order. */
  public interface IdVisitor {
    /** Returns false to stop. */
    boolean visit(byte[] key, long id) throws RocksDBException, LDAPException;
  }

  /**
   * Visits the strict descendants of {@code base}: all of them, or with {@code oneLevel} only the
   * children, skipping each child's subtree with one seek.
   */
  void visitDescendants(DN base, boolean oneLevel, IdVisitor visitor)
      throws RocksDBException, LDAPException {
    visitDescendants(base, oneLevel, null, visitor);
  }

  /**
   * Like {@link #visitDescendants(DN, boolean, IdVisitor)}, starting at the descendant key {@code
   * startAt} (inclusive) when it is not null: how a paged search resumes its walk.
   */
  void visitDescendants(DN base, boolean oneLevel, byte[] startAt, IdVisitor visitor)
      throws RocksDBException, LDAPException {
    byte[] key = DnKeys.key(base);
    byte[] start = startAt != null ? startAt : DnKeys.descendantsStart(key);
    byte[] end = DnKeys.descendantsEnd(key);
    int childDepth = DnKeys.depth(key) + 1;
    try (Slice upper = new Slice(end);
        ReadOptions options = new ReadOptions().setIterateUpperBound(upper);
        RocksIterator it = db.newIterator(handle, options)) {
      it.seek(start);
      while (it.isValid()) {
        byte[] k = it.key();
        if (!visitor.visit(k, Bytes.readLongKey(it.value(), 0))) {
          return;
        }
        if (oneLevel && DnKeys.depth(k) == childDepth) {
          it.seek(DnKeys.descendantsEnd(k));
        } else {
          it.next();
        }
      }
    }
  }

  @Override
  public String type() {
    return "DN2ID";
  }

  @Override
  public String keyToString(byte[] key) {
    return DnKeys.toDisplay(key);
  }

  @Override
  public String valueToString(byte[] value) {
    return Long.toString(Bytes.readLongKey(value, 0));
  }
}
