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
 * files a compaction replaced leaving the cache, and memtables bounded by the data served as it
 * grows.
 */
class MemoryBoundsTest {
  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private static final String ACTIVE_MEMTABLES = "rocksdb.cur-size-active-mem-table";
  private static final String LIVE_TABLE_FILES = "rocksdb.live-sst-files-size";

  private static Entry userWithPhoto(int i, SplittableRandom random) {
    return userWithPhoto(i, random, 1500);
  }

  private static Entry userWithPhoto(int i, SplittableRandom random, int photoBytes) {
    byte[] photo = new byte[photoBytes];
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
  void aServedBackendsMemtablesFollowItsTableFilesAsTheyGrowWithoutARestart() throws Exception {
    // The server's floor is 32 MiB, reached at 256 MiB of table files; a test scales it down to a
    // floor of 8 MiB (above the memtables' arena blocks: up to 1 MiB in each tree written), so
    // that 96 MB of photos take the bound past it.
    long floor = 8 * MIB;
    BackendSettings settings = StorageFixtures.settings(dir, 4000).withMemtableBytes(64 * MIB);
    Schema schema = Schema.getDefaultStandardSchema();
    try (Backend backend = Backend.openServing(settings, schema, floor)) {
      assertThat(backend.memtableBound()).as("empty: the floor").isEqualTo(floor);
      EntryContainer container = backend.containers().get(0);
      addBaseAndPeople(container);
      SplittableRandom random = new SplittableRandom(5);
      double mostOverBound = 0;
      for (int i = 0; i < 4800; i++) {
        container.add(userWithPhoto(i, random, 20_000));
        long active = backend.rocksDb().getAggregatedLongProperty(ACTIVE_MEMTABLES);
        mostOverBound = Math.max(mostOverBound, (double) active / backend.memtableBound());
      }
      long tableBytes = backend.rocksDb().getAggregatedLongProperty(LIVE_TABLE_FILES);
      assertThat(tableBytes)
          .as("the photos, less what the memtables hold")
          .isGreaterThan(80L << 20);
      assertThat(backend.memtableBound())
          .as("an eighth of the table files as they grew, not the floor taken when opened empty")
          .isGreaterThan(floor + floor / 4)
          .isLessThanOrEqualTo(MemoryBudget.memtablesFor(tableBytes, floor, 64 * MIB));
      assertThat(mostOverBound)
          .as("the memtables were flushed at the bound in effect, not at the 64 MiB share")
          .isLessThan(1.25);
    }
    try (Backend tool = Backend.open(settings, schema)) {
      assertThat(tool.memtableBound())
          .as("a tool writing in bulk keeps the share")
          .isEqualTo(64 * MIB);
      assertThat(tool.blockCacheCapacity())
          .isEqualTo(settings.blockCacheBytes() + settings.memtableBytes());
    }
    try (Backend reopened = Backend.openServing(settings.withMemtableBytes(16 * MIB), schema)) {
      assertThat(reopened.memtableBound())
          .as("never more than the share, whatever the data")
          .isEqualTo(16 * MIB);
    }
  }
}
