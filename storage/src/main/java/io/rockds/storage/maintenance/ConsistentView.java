package io.rockds.storage.maintenance;

import io.rockds.storage.EntryContainer;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.Snapshot;

/**
 * Read options pinned to one RocksDB snapshot, so a check sees each write batch entirely or not at
 * all. A read-only (secondary) backend does not change between catch-ups and is read as is.
 */
final class ConsistentView implements AutoCloseable {
  private final RocksDB db;
  private final Snapshot snapshot;
  private final ReadOptions options;

  ConsistentView(EntryContainer container) {
    this.db = container.backend().rocksDb();
    this.snapshot = container.backend().readOnly() ? null : db.getSnapshot();
    this.options = new ReadOptions().setFillCache(false);
    if (snapshot != null) {
      options.setSnapshot(snapshot);
    }
  }

  ReadOptions options() {
    return options;
  }

  @Override
  public void close() {
    options.close();
    if (snapshot != null) {
      db.releaseSnapshot(snapshot);
    }
  }
}
