package io.rockds.storage;

import java.nio.charset.StandardCharsets;
import org.rocksdb.RocksDBException;

/** Raw writes that bypass the write path, to corrupt a tree on purpose in tests. */
final class RocksDbAccess {
  private RocksDbAccess() {}

  static void put(Tree tree, String key, byte[] value) throws RocksDBException {
    tree.db.put(tree.handle, key.getBytes(StandardCharsets.UTF_8), value);
  }

  static void delete(Tree tree, String key) throws RocksDBException {
    tree.db.delete(tree.handle, key.getBytes(StandardCharsets.UTF_8));
  }
}
