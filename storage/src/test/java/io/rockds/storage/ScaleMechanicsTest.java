package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.BASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.Options;
import org.rocksdb.TableProperties;
import org.rocksdb.TickerType;

/**
 * The mechanics that keep reads as cheap at millions of entries as at thousands, shown on small
 * data: bounded SST files, index and filter blocks that stay cached while data blocks churn, and an
 * entry cache that large groups cannot empty.
 */
class ScaleMechanicsTest {
  private static final int PHOTO_BYTES = 1500;

  @TempDir Path dir;

  private static BackendSettings settings(
      Path directory, long entryCacheBytes, long blockCacheBytes) {
    return settings(directory, entryCacheBytes, true, blockCacheBytes);
  }

  private static BackendSettings settings(
      Path directory, long entryCacheBytes, boolean cacheSmallEntries, long blockCacheBytes) {
    BackendSettings d = StorageFixtures.settings(directory, 4000);
    return new BackendSettings(
        d.id(),
        d.baseDns(),
        d.directory(),
        d.indexEntryLimit(),
        d.indexes(),
        false,
        entryCacheBytes,
        cacheSmallEntries,
        blockCacheBytes,
        d.compression(),
        d.memtableBytes());
  }

  private static Entry user(int i, SplittableRandom random) {
    byte[] photo = new byte[PHOTO_BYTES];
    random.nextBytes(photo);
    Entry e = StorageFixtures.person(i, "Sn" + (i % 100));
    e.addAttribute(new Attribute("jpegPhoto", photo));
    return e;
  }

  /** Imports the base, ou=People and {@code users} users with random 1.5 kB photos. */
  static void importUsers(EntryContainer container, Path work, int users) throws Exception {
    SplittableRandom random = new SplittableRandom(7);
    try (BulkLoad load = container.startBulkLoad(work)) {
      load.add(load.prepare(StorageFixtures.baseEntry()));
      load.add(
          load.prepare(
              new Entry(
                  "ou=People,dc=example,dc=com",
                  new Attribute("objectClass", "top", "organizationalUnit"),
                  new Attribute("ou", "People"))));
      for (int i = 0; i < users; i++) {
        load.add(load.prepare(user(i, random)));
      }
      load.finish();
    }
  }

  @Test
  void rollingWriterBoundsEveryFileAndTheIngestedSetHoldsEveryRecord() throws Exception {
    long target = 256 * 1024;
    SplittableRandom random = new SplittableRandom(1);
    try (Backend backend =
            Backend.open(
                settings(dir.resolve("db"), 0, 8L << 20), Schema.getDefaultStandardSchema());
        EnvOptions env = new EnvOptions();
        Options options = backend.sstOptions(TreeTuning.Kind.ENTRIES)) {
      Id2Entry tree = backend.containerFor(BASE).id2entry();
      List<Path> files;
      try (RollingSstWriter writer =
          new RollingSstWriter(
              env, options, Files.createDirectory(dir.resolve("ssts")), "id2entry", target)) {
        for (long id = 1; id <= 2_000; id++) {
          byte[] value = new byte[1_000];
          random.nextBytes(value);
          writer.put(Bytes.longKey(id), value);
        }
        files = writer.finish();
      }
      assertThat(files).hasSizeGreaterThan(4);
      for (Path file : files) {
        // A file ends at the first block boundary past the target.
        assertThat(Files.size(file)).isLessThan(target + 64 * 1024);
      }
      try (IngestExternalFileOptions ingest = new IngestExternalFileOptions().setMoveFiles(true)) {
        backend
            .rocksDb()
            .ingestExternalFile(tree.handle(), files.stream().map(Path::toString).toList(), ingest);
      }
      for (long id = 1; id <= 2_000; id++) {
        assertThat(backend.rocksDb().get(tree.handle(), Bytes.longKey(id))).hasSize(1_000);
      }
    }
  }

  @Test
  void importWritesBoundedFilesWithPartitionedIndexesAndFilters() throws Exception {
    try (Backend backend =
        Backend.open(settings(dir.resolve("db"), 0, 8L << 20), Schema.getDefaultStandardSchema())) {
      EntryContainer container = backend.containerFor(BASE);
      importUsers(container, dir.resolve("work"), 3_000);
      List<LiveFileMetaData> files = backend.rocksDb().getLiveFilesMetaData();
      assertThat(files).isNotEmpty();
      for (LiveFileMetaData file : files) {
        assertThat(file.size()).isLessThanOrEqualTo(TreeTuning.TARGET_FILE_BYTES + (1 << 20));
      }
      // The photos, stored apart, make id2values the largest tree.
      Map<String, TableProperties> tables =
          backend.rocksDb().getPropertiesOfAllTables(container.id2entry().values().handle());
      assertThat(tables).isNotEmpty();
      for (TableProperties table : tables.values()) {
        assertThat(table.getIndexPartitions())
            .as("index partitions of %s", table.getColumnFamilyName())
            .isGreaterThan(1);
        assertThat(table.getTopLevelIndexSize()).isLessThan(table.getIndexSize());
      }
    }
  }

  @Test
  void importLeavesEveryTreeInTheLastLevel() throws Exception {
    try (Backend backend =
        Backend.open(settings(dir.resolve("db"), 0, 8L << 20), Schema.getDefaultStandardSchema())) {
      importUsers(backend.containerFor(BASE), dir.resolve("work"), 3_000);
      List<LiveFileMetaData> files = backend.rocksDb().getLiveFilesMetaData();
      int last = files.stream().mapToInt(LiveFileMetaData::level).max().orElseThrow();
      assertThat(files)
          .as(
              "no file in a level a point read must check before the last (dn2id came through the"
                  + " memtable)")
          .allSatisfy(
              file ->
                  assertThat(file.level())
                      .as(new String(file.columnFamilyName(), StandardCharsets.UTF_8))
                      .isEqualTo(last));
    }
  }

  @Test
  void indexAndFilterBlocksStayCachedWhileDataBlocksChurn() throws Exception {
    // 3,000 entries of ~1.8 kB: over 5 MB of data blocks through a 2 MB block cache (1 MB, and
    // room for the 1 MB of memtables charged to it, which blocks use while memtables do not).
    int users = 3_000;
    try (Backend backend =
        Backend.open(
            settings(dir.resolve("db"), 0, 1L << 20).withMemtableBytes(1L << 20),
            Schema.getDefaultStandardSchema())) {
      EntryContainer container = backend.containerFor(BASE);
      importUsers(container, dir.resolve("work"), users);
      SplittableRandom random = new SplittableRandom(3);
      long firstId = container.idOf(StorageFixtures.dn("uid=user.0,ou=People,dc=example,dc=com"));
      for (int i = 0; i < 2 * users; i++) { // warm-up: every partition read once
        assertThat(container.id2entry().get(firstId + random.nextInt(users))).isNotNull();
      }
      long indexMisses = backend.statistics().getTickerCount(TickerType.BLOCK_CACHE_INDEX_MISS);
      long filterMisses = backend.statistics().getTickerCount(TickerType.BLOCK_CACHE_FILTER_MISS);
      long dataMisses = backend.statistics().getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS);
      for (int i = 0; i < 4 * users; i++) {
        assertThat(container.id2entry().get(firstId + random.nextInt(users))).isNotNull();
      }
      assertThat(backend.statistics().getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS) - dataMisses)
          .as("data blocks are evicted: the cache is smaller than the data")
          .isGreaterThan(users);
      assertThat(
              backend.statistics().getTickerCount(TickerType.BLOCK_CACHE_INDEX_MISS) - indexMisses)
          .as("index block misses")
          .isZero();
      assertThat(
              backend.statistics().getTickerCount(TickerType.BLOCK_CACHE_FILTER_MISS)
                  - filterMisses)
          .as("filter block misses")
          .isZero();
    }
  }

  @Test
  void entryCacheKeepsSmallEntriesWhenHugeGroupsPassThrough() throws Exception {
    int users = 2_000;
    try (Backend backend =
        Backend.open(
            settings(dir.resolve("db"), 16L << 20, 8L << 20), Schema.getDefaultStandardSchema())) {
      EntryContainer container = backend.containerFor(BASE);
      StorageFixtures.addTree(container);
      SplittableRandom random = new SplittableRandom(5);
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < users; i++) {
        Entry u = user(i, random);
        // The cache holds users without their photos (stored apart): weight in the record instead.
        u.addAttribute("description", "d".repeat(PHOTO_BYTES));
        container.add(u);
        ids.add(container.idOf(u.getParsedDN()));
      }
      for (long id : ids) {
        assertThat(container.get(id)).isNotNull();
      }
      long cachedBytes = backend.entryCacheBytes();
      assertThat(cachedBytes)
          .as("the users fill most of the cache's small part")
          .isGreaterThan(5L << 20);
      List<Long> groups = new ArrayList<>();
      for (int g = 0; g < 4; g++) {
        List<String> members = new ArrayList<>();
        for (int m = 0; m < 30_000; m++) {
          members.add("uid=member." + g + "." + m + ",ou=People,dc=example,dc=com");
        }
        Entry group =
            new Entry(
                "cn=group." + g + ",dc=example,dc=com",
                new Attribute("objectClass", "groupOfNames"),
                new Attribute("cn", "group." + g),
                new Attribute("member", members));
        container.add(group);
        long id = container.idOf(group.getParsedDN());
        groups.add(id);
        assertThat(container.get(id).getAttribute("member").size()).isEqualTo(30_000);
        StoredEntry cached = backend.cachedEntryIfPresent(id);
        assertThat(cached).as("the group is cached").isNotNull();
        assertThat(cached.lacksValues()).as("without its members, stored apart").isTrue();
        assertThat(cached.footprint())
            .as("weighing what its other attributes weigh")
            .isLessThan(4096);
      }
      backend.cleanUpEntryCache();
      for (long id : ids) {
        assertThat(backend.cachedEntryIfPresent(id)).as("user %d still cached", id).isNotNull();
      }
      for (long id : groups) {
        assertThat(backend.cachedEntryIfPresent(id)).as("group %d still cached", id).isNotNull();
      }
      assertThat(backend.entryCacheBytes() - cachedBytes)
          .as("the groups' weight in the cache")
          .isLessThan(4 * 4096);
    }
  }

  @Test
  void theBudgetsEntryCacheKeepsLargeEntriesOnlyAndForgetsThemOnWrite() throws Exception {
    try (Backend backend =
        Backend.open(
            settings(dir.resolve("db"), 16L << 20, false, 8L << 20),
            Schema.getDefaultStandardSchema())) {
      EntryContainer container = backend.containerFor(BASE);
      StorageFixtures.addTree(container);
      SplittableRandom random = new SplittableRandom(7);
      Entry user = user(1, random);
      container.add(user);
      long userId = container.idOf(user.getParsedDN());
      Entry large = user(2, random);
      // Large in its record: a photo would be stored apart.
      large.setAttribute(new Attribute("postalAddress", "x".repeat(200_000)));
      container.add(large);
      long largeId = container.idOf(large.getParsedDN());
      List<String> members = new ArrayList<>();
      for (int m = 0; m < 5_000; m++) {
        members.add("uid=member." + m + ",ou=People,dc=example,dc=com");
      }
      Entry group =
          new Entry(
              "cn=big,dc=example,dc=com",
              new Attribute("objectClass", "groupOfNames"),
              new Attribute("cn", "big"),
              new Attribute("member", members));
      container.add(group);
      long groupId = container.idOf(group.getParsedDN());

      assertThat(container.get(userId)).isNotNull();
      assertThat(container.get(largeId)).isNotNull();
      assertThat(container.get(groupId).getAttribute("member").size()).isEqualTo(5_000);
      assertThat(backend.cachedEntryIfPresent(userId))
          .as("a user is decoded on each read")
          .isNull();
      assertThat(backend.cachedEntryIfPresent(largeId)).as("the large entry is kept").isNotNull();
      assertThat(backend.cachedEntryIfPresent(groupId))
          .as("a group is small without its members, which are stored apart")
          .isNull();

      container.modify(
          large.getParsedDN(),
          current -> {
            Entry changed = current.duplicate();
            changed.setAttribute("description", "changed");
            return changed;
          });
      assertThat(container.get(largeId).getAttributeValue("description"))
          .as("read after the write, not the cached entry from before it")
          .isEqualTo("changed");
    }
  }

  /** Reads every user's entry and DN key; returns the data block misses they cost. */
  private static long dataMissesReadingEveryUser(Backend backend, int users) throws Exception {
    EntryContainer container = backend.containerFor(BASE);
    long before = backend.statistics().getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS);
    for (int i = 0; i < users; i++) {
      long id =
          container.idOf(StorageFixtures.dn("uid=user." + i + ",ou=People,dc=example,dc=com"));
      assertThat(container.id2entry().get(id)).isNotNull();
    }
    return backend.statistics().getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS) - before;
  }

  /**
   * A database under {@code dir} holding {@code users} imported users, closed: the next open starts
   * with a cold block cache of {@code blockCacheBytes}.
   */
  private BackendSettings importedDatabase(int users, long blockCacheBytes) throws Exception {
    BackendSettings settings = settings(dir.resolve("db"), 0, blockCacheBytes);
    try (Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      importUsers(backend.containerFor(BASE), dir.resolve("work"), users);
    }
    return settings;
  }

  @Test
  void preloadFillsTheCacheSoTheFirstReadsHitIt() throws Exception {
    int users = 2_000;
    BackendSettings settings = importedDatabase(users, 32L << 20);
    try (Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      assertThat(dataMissesReadingEveryUser(backend, users))
          .as("a cold cache: the first reads miss")
          .isGreaterThan(users / 10);
    }
    try (Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      backend.startPreload(Duration.ofMinutes(1), Clock.systemUTC());
      CachePreload.Result result =
          backend.preload().orElseThrow().result().get(1, TimeUnit.MINUTES);
      assertThat(result.outcome()).isEqualTo(CachePreload.Outcome.COMPLETE);
      assertThat(result.keys()).as("dn2id, uid, id2entry... records").isGreaterThan(3L * users);
      assertThat(dataMissesReadingEveryUser(backend, users)).as("after the preload").isZero();
    }
  }

  @Test
  void memoryOnlyReadsRefuseToWaitForTheDiskAndServeWhatIsCached() throws Exception {
    int users = 500;
    BackendSettings settings = importedDatabase(users, 32L << 20);
    try (Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      EntryContainer container = backend.containerFor(BASE);
      String dn = "uid=user.7,ou=People,dc=example,dc=com";
      long id = container.idOf(StorageFixtures.dn(dn));
      for (ThrowingCallable read :
          List.<ThrowingCallable>of(
              () -> container.withDnOnly(id, ReadFrom.MEMORY),
              () -> container.recordToSend(id, ReadFrom.MEMORY),
              () -> container.peekWithoutValuesApart(id, null, ReadFrom.MEMORY))) {
        assertThatThrownBy(read)
            .as("a cold cache: the record is on disk")
            .isInstanceOfSatisfying(
                StorageException.class,
                e -> {
                  assertThat(e.kind()).isEqualTo(StorageException.Kind.NOT_IN_MEMORY);
                  assertThat(e.getResultCode()).isEqualTo(ResultCode.BUSY);
                });
      }
      assertThat(backend.health().isHealthy()).as("a miss is no failure").isTrue();

      assertThat(container.withDnOnly(id, ReadFrom.ANYWHERE).getDN()).isEqualTo(dn);
      assertThat(container.withDnOnly(id, ReadFrom.MEMORY).getDN())
          .as("the block read from disk is now cached")
          .isEqualTo(dn);
      assertThatThrownBy(() -> container.recordToSend(id, ReadFrom.MEMORY))
          .as("the photo, stored apart, is still on disk")
          .isInstanceOfSatisfying(
              StorageException.class,
              e -> assertThat(e.kind()).isEqualTo(StorageException.Kind.NOT_IN_MEMORY));
      assertThat(container.recordToSend(id, ReadFrom.ANYWHERE)).isNotNull();
      assertThat(container.recordToSend(id, ReadFrom.MEMORY)).isNotNull();
      assertThat(container.peekWithoutValuesApart(id, null, ReadFrom.MEMORY).getDN()).isEqualTo(dn);
    }
  }

  @Test
  void preloadReadsWhatSearchesReadFirst() throws Exception {
    try (Backend backend =
        Backend.open(settings(dir.resolve("db"), 0, 8L << 20), Schema.getDefaultStandardSchema())) {
      List<String> order =
          backend.preloadOrder().stream()
              .map(Backend::treeName)
              .map(n -> n.substring(n.lastIndexOf('/') + 1))
              .toList();
      assertThat(order.get(0)).isEqualTo("dn2id");
      assertThat(order.indexOf("uid.caseIgnoreMatch"))
          .as("an equality index before the entries")
          .isBetween(1, order.indexOf("id2entry"));
      String substring =
          order.stream()
              .filter(n -> n.startsWith("sn.") && n.contains("Substring"))
              .findFirst()
              .orElseThrow();
      assertThat(order.indexOf(substring))
          .as("a substring index after them")
          .isGreaterThan(order.indexOf("id2entry"));
      assertThat(order.indexOf("id2values")).isGreaterThan(order.indexOf("id2entry"));
      assertThat(order).hasSameSizeAs(backend.preloadOrder().stream().distinct().toList());
    }
  }

  @Test
  void preloadStopsWhenTheCacheIsNearlyFull() throws Exception {
    int users = 3_000; // over 5 MB of data blocks for a 1 MB cache
    BackendSettings settings = importedDatabase(users, 1L << 20);
    try (Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      backend.startPreload(Duration.ofMinutes(1), Clock.systemUTC());
      CachePreload.Result result =
          backend.preload().orElseThrow().result().get(1, TimeUnit.MINUTES);
      assertThat(result.outcome()).isEqualTo(CachePreload.Outcome.CACHE_FULL);
    }
  }

  @Test
  void preloadStopsAtItsTimeLimit() throws Exception {
    BackendSettings settings = importedDatabase(2_000, 32L << 20);
    try (Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      backend.startPreload(Duration.ofSeconds(3), new SecondPerReading());
      CachePreload.Result result =
          backend.preload().orElseThrow().result().get(1, TimeUnit.MINUTES);
      assertThat(result.outcome()).isEqualTo(CachePreload.Outcome.TIME_LIMIT);
      assertThat(result.keys()).as("three checks of %d records", 256).isEqualTo(3 * 256);
    }
  }

  @Test
  void closingTheBackendStopsItsPreloadFirst() throws Exception {
    BackendSettings settings = importedDatabase(2_000, 32L << 20);
    Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema());
    HeldClock clock = new HeldClock();
    backend.startPreload(Duration.ofMinutes(1), clock);
    assertThat(clock.held.await(1, TimeUnit.MINUTES))
        .as("the scan reached its first check")
        .isTrue();
    Thread closer = new Thread(backend::close, "closer");
    closer.start();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (closer.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
      Thread.onSpinWait(); // until close() waits for the scan
    }
    assertThat(closer.getState()).isEqualTo(Thread.State.WAITING);
    clock.release.countDown();
    closer.join(TimeUnit.MINUTES.toMillis(1));
    assertThat(closer.isAlive()).as("close returned").isFalse();
    assertThat(backend.preload().orElseThrow().result().get(1, TimeUnit.MINUTES).outcome())
        .isEqualTo(CachePreload.Outcome.STOPPED);
  }

  /** A test clock: only its instants matter. */
  private abstract static class UtcTestClock extends Clock {
    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }

  /** A clock one second later at each reading. */
  private static final class SecondPerReading extends UtcTestClock {
    private Instant now = Instant.EPOCH;

    @Override
    public synchronized Instant instant() {
      now = now.plusSeconds(1);
      return now;
    }
  }

  /** A clock whose second reading (the scan's first check) waits until released. */
  private static final class HeldClock extends UtcTestClock {
    final CountDownLatch held = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger readings = new AtomicInteger();

    @Override
    public Instant instant() {
      if (readings.incrementAndGet() == 2) {
        held.countDown();
        try {
          release.await(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return Instant.EPOCH;
    }
  }
}
