package io.rockds.storage;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * Attribute descriptions ({@code cn}, {@code cn;lang-fr}, {@code jpegPhoto;binary}) as small
 * integers, so an encoded entry does not repeat the same strings millions of times. Persisted in
 * the {@code state} tree under {@code adesc/<description>}; a new description is written in the
 * same batch as the first entry that uses it.
 */
final class AttributeDictionary {
  private static final byte[] PREFIX = "adesc/".getBytes(StandardCharsets.UTF_8);

  private final RocksDB db;
  private final ColumnFamilyHandle state;
  private final Map<String, Integer> ids = new ConcurrentHashMap<>();
  private final Map<Integer, String> names = new ConcurrentHashMap<>();
  private int next;

  AttributeDictionary(RocksDB db, ColumnFamilyHandle state) {
    this.db = db;
    this.state = state;
    try (RocksIterator it = db.newIterator(state)) {
      for (it.seek(PREFIX); it.isValid() && startsWith(it.key()); it.next()) {
        String name =
            new String(
                it.key(), PREFIX.length, it.key().length - PREFIX.length, StandardCharsets.UTF_8);
        int id = (int) Bytes.readLongKey(it.value(), 0);
        ids.put(name, id);
        names.put(id, name);
        next = Math.max(next, id + 1);
      }
    }
  }

  private static boolean startsWith(byte[] key) {
    if (key.length < PREFIX.length) {
      return false;
    }
    for (int i = 0; i < PREFIX.length; i++) {
      if (key[i] != PREFIX[i]) {
        return false;
      }
    }
    return true;
  }

  /** The id of a description, allocating one (recorded in {@code batch}) on first use. */
  int idOf(String description, WriteBatch batch) throws RocksDBException {
    Integer id = ids.get(description);
    if (id != null) {
      return id;
    }
    synchronized (this) {
      id = ids.get(description);
      if (id == null) {
        id = next++;
        // Written immediately and in the batch: the entry may commit in another thread's batch
        // first.
        byte[] key = Bytes.concat(PREFIX, description.getBytes(StandardCharsets.UTF_8));
        byte[] value = Bytes.longKey(id);
        db.put(state, key, value);
        if (batch != null) {
          batch.put(state, key, value);
        }
        names.put(id, description);
        ids.put(description, id);
      }
      return id;
    }
  }

  String nameOf(int id) {
    String name = names.get(id);
    if (name == null) {
      throw new IllegalStateException("unknown attribute description id " + id);
    }
    return name;
  }
}
