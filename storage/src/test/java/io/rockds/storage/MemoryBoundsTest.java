package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * What bounds a backend's native memory: memtables charged to the block cache, the blocks of table
 * files a compaction replaced leaving the cache, and memtables sized to the data served.
 */
class MemoryBoundsTest {
  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private static Entry userWithPhoto(int i, SplittableRandom random) {
    byte[] photo = new byte[1500];
    random.nextBytes(photo);
    Entry e = StorageFixtures.person(i, "Sn" + (i % 100));
    e.addAttribute(new Attribute("jpegPhoto", photo));
    return e;
  }

  private static void addBaseAndPeople(EntryContainer container) throws Exception {
    container.add(StorageFixtures.baseEntry());
    container.add(
        new Entry(
            "ou=People,dc=example,dc=com",
            new Attribute("objectClass", "top", "organizationalUnit"),
            new Attribute("ou", "People")));
  }

  @Test
  void memtablesAreChargedToTheBlockCacheWhichHoldsTheirBoundBesideItsOwn() throws Exception {
    BackendSettings settings = StorageFixtures.settings(dir, 4000).withMemtableBytes(32 * MIB);
    try (Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      EntryContainer container = backend.containers().get(0);
      addBaseAndPeople(container);
      SplittableRandom random = new SplittableRandom(3);
      for (int i = 0; i < 2000; i++) {
        container.add(userWithPhoto(i, random));
      }
      // Nothing was flushed, so nothing was read from a table file: what the cache holds is the
      // memtables' charge.
      assertThat(backend.longProperty("rocksdb.total-sst-files-size")).isZero();
      assertThat(backend.memtableUsage()).isGreaterThan(3 * MIB);
      assertThat(backend.blockCacheUsage()).isGreaterThanOrEqualTo(backend.memtableUsage());
      assertThat(backend.blockCacheCapacity())
          .isEqualTo(settings.blockCacheBytes() + settings.memtableBytes());
    }
  }

  @Test
  void theBlocksOfTableFilesACompactionReplacedLeaveTheCache() throws Exception {
    try (LRUCache cache = TreeTuning.blockCache(64 * MIB);
        ColumnFamilyOptions options = TreeTuning.options(TreeTuning.Kind.KEYS, "none", cache);
        DBOptions dbOptions =
            new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)) {
      List<ColumnFamilyDescriptor> descriptors =
          List.of(
              new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, options),
              TreeTuning.descriptor("tree", options));
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      try (RocksDB db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
          FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        ColumnFamilyHandle tree = handles.get(1);
        // Two generations of the same keys: two overlapping files that a compaction merges.
        byte[] value = new byte[1024];
        for (int generation = 0; generation < 2; generation++) {
          value[0] = (byte) generation;
          for (int i = 0; i < 4000; i++) {
            db.put(tree, String.format("key-%06d", i).getBytes(StandardCharsets.UTF_8), value);
          }
          db.flush(flush, tree);
        }
        try (RocksIterator it = db.newIterator(tree)) {
          int read = 0;
          for (it.seekToFirst(); it.isValid(); it.next()) {
            read++;
          }
          assertThat(read).isEqualTo(4000);
        }
        long cachedBefore = cache.getUsage();
        assertThat(cachedBefore).as("the data blocks of both files").isGreaterThan(6 * MIB);

        db.compactRange(tree);

        assertThat(db.getProperty(tree, "rocksdb.num-files-at-level0")).isEqualTo("0");
        assertThat(cache.getUsage())
            .as("the replaced files' blocks left; the new file's were never read")
            .isLessThan(cachedBefore / 8);
        for (ColumnFamilyHandle handle : handles) {
          handle.close();
        }
      }
    }
  }

  @Test
  void aServedBackendsMemtablesFollowItsTableFilesWithinTheShare() throws Exception {
    try (Backend backend = StorageFixtures.open(dir, 4000)) {
      EntryContainer container = backend.containers().get(0);
      addBaseAndPeople(container);
      SplittableRandom random = new SplittableRandom(5);
      for (int i = 0; i < 500; i++) {
        container.add(userWithPhoto(i, random));
      }
      List<ColumnFamilyHandle> trees = new ArrayList<>();
      for (Tree tree : container.trees()) {
        trees.add(tree.handle());
      }
      try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        backend.rocksDb().flush(flush, trees);
      }
    }
    long tableBytes = BackendSettings.tableBytes(dir);
    assertThat(tableBytes).isGreaterThan(500L * 1500);
    try (Backend reopened = StorageFixtures.open(dir, 4000)) {
      assertThat(tableBytes)
          .as("what RocksDB counts as the backend's table files")
          .isEqualTo(reopened.longProperty("rocksdb.total-sst-files-size"));
    }
    BackendSettings share = StorageFixtures.settings(dir, 4000).withMemtableBytes(512 * MIB);
    assertThat(share.forServing().memtableBytes())
        .isEqualTo(MemoryBudget.memtablesFor(tableBytes, 512 * MIB))
        .isEqualTo(MemoryBudget.MIN_SERVING_MEMTABLE_BYTES);
    assertThat(share.withMemtableBytes(16 * MIB).forServing().memtableBytes())
        .as("never more than the share")
        .isEqualTo(16 * MIB);
    assertThat(BackendSettings.tableBytes(dir.resolve("absent"))).isZero();
  }
}
