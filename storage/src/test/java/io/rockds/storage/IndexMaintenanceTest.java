package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.BASE;
import static io.rockds.storage.StorageFixtures.addTree;
import static io.rockds.storage.StorageFixtures.dn;
import static io.rockds.storage.StorageFixtures.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.maintenance.IndexRebuilder;
import io.rockds.storage.maintenance.IndexStatistics;
import io.rockds.storage.maintenance.IndexStats;
import io.rockds.storage.maintenance.IndexVerifier;
import io.rockds.storage.maintenance.KeyCount;
import io.rockds.storage.maintenance.Mismatch;
import io.rockds.storage.maintenance.VerifyReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexMaintenanceTest {
  private static final byte[] LEE = "lee".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;

  @Test
  void verifyFindsEveryKindOfIndexCorruption() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 3)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      for (int i = 0; i < 5; i++) {
        c.add(person(i, i < 4 ? "Lee" : "Kim"));
      }
      assertThat(new IndexVerifier(c).verifyAll().mismatches()).isEmpty();

      AttributeIndex sn = c.index("sn", IndexType.EQUALITY);
      long kimId = c.idOf(dn("uid=user.4,ou=People,dc=example,dc=com"));
      RocksDbAccess.put(sn, "kim", IdListCodec.encode(IdSet.of(kimId + 100)));
      RocksDbAccess.put(sn, "lee", IdListCodec.encode(IdSet.of(1)));
      RocksDbAccess.delete(c.index("uid", IndexType.EQUALITY), "user.0");

      VerifyReport report = new IndexVerifier(c).verifyAll();
      assertThat(report.mismatches())
          .extracting(Mismatch::tree, Mismatch::kind, Mismatch::key, Mismatch::id)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(
                  "sn.caseIgnoreMatch", Mismatch.Kind.MISSING_ID, "kim", kimId),
              org.assertj.core.groups.Tuple.tuple(
                  "sn.caseIgnoreMatch", Mismatch.Kind.EXTRA_ID, "kim", kimId + 100),
              org.assertj.core.groups.Tuple.tuple(
                  "sn.caseIgnoreMatch", Mismatch.Kind.WRONG_LIMIT_STATE, "lee", -1L),
              org.assertj.core.groups.Tuple.tuple(
                  "sn.caseIgnoreMatch", Mismatch.Kind.STRAY_OVER_LIMIT_COUNT, "lee", -1L),
              org.assertj.core.groups.Tuple.tuple(
                  "uid.caseIgnoreMatch",
                  Mismatch.Kind.MISSING_ID,
                  "user.0",
                  c.idOf(dn("uid=user.0,ou=People,dc=example,dc=com"))));
    }
  }

  @Test
  void verifyFindsEntryTreeCorruption() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      c.add(person(1, "Lee"));
      long people = c.idOf(StorageFixtures.PEOPLE);
      try (org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch()) {
        c.id2childrenCount().add(batch, people, 5);
        c.dn2id().put(batch, dn("uid=ghost,ou=People,dc=example,dc=com"), 999);
        backend.write(batch);
      }
      assertThat(new IndexVerifier(c).verifyEntryTrees().mismatches())
          .extracting(Mismatch::kind)
          .containsExactlyInAnyOrder(Mismatch.Kind.WRONG_CHILD_COUNT, Mismatch.Kind.ORPHAN_DN);
    }
  }

  /** Limit crossing in both directions, and the recovery OpenDJ never does short of a rebuild. */
  @Test
  void overLimitKeyFallingBackUnderTheLimitIsReportedAndRecovered() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 5)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      for (int i = 0; i < 8; i++) {
        c.add(person(i, "Lee"));
      }
      AttributeIndex sn = c.index("sn", IndexType.EQUALITY);
      IndexStats stats = new IndexStatistics(c).of(List.of(sn)).get(0);
      assertThat(stats.overLimitKeys()).containsExactly(new KeyCount(IndexKey.of("lee"), 8));
      assertThat(stats.recoverableKeys()).isEmpty();

      for (int i = 0; i < 5; i++) {
        c.delete(dn("uid=user." + i + ",ou=People,dc=example,dc=com"));
      }
      // Still over-limit: it reads as "all entries", a superset, which stays correct.
      assertThat(sn.read(LEE).isDefined()).isFalse();
      stats = new IndexStatistics(c).of(List.of(sn)).get(0);
      assertThat(stats.recoverableKeys()).containsExactly(new KeyCount(IndexKey.of("lee"), 3));
      VerifyReport report = new IndexVerifier(c).verifyIndexes(List.of(sn));
      assertThat(report.mismatches()).isEmpty();
      assertThat(report.recoverableKeys()).containsExactly("sn.caseIgnoreMatch lee");

      IndexRebuilder rebuilder = new IndexRebuilder(c);
      // objectClass, cn.presence and the sn substring key "lee" fell back under the limit too.
      assertThat(rebuilder.degradedIndexes())
          .extracting(AttributeIndex::name)
          .containsExactlyInAnyOrder(
              "objectClass.objectIdentifierMatch",
              "sn.caseIgnoreMatch",
              "sn.caseIgnoreSubstringsMatch:6",
              "cn.presence");
      assertThat(rebuilder.rebuildDegraded(n -> {})).contains(sn);
      assertThat(sn.read(LEE).toArray())
          .containsExactly(
              c.idOf(dn("uid=user.5,ou=People,dc=example,dc=com")),
              c.idOf(dn("uid=user.6,ou=People,dc=example,dc=com")),
              c.idOf(dn("uid=user.7,ou=People,dc=example,dc=com")));
      assertThat(new IndexStatistics(c).of(List.of(sn)).get(0).overLimitKeys()).isEmpty();
      assertThat(rebuilder.degradedIndexes()).isEmpty();
      assertThat(new IndexVerifier(c).verifyAll().isClean()).isTrue();
    }
  }

  @Test
  void statisticsReportKeysNearTheLimit() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 20)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      int id = 0;
      for (String[] group :
          new String[][] {{"Lee", "17"}, {"Kim", "18"}, {"Ng", "19"}, {"Li", "2"}}) {
        for (int i = 0; i < Integer.parseInt(group[1]); i++) {
          c.add(person(id++, group[0]));
        }
      }
      IndexStats stats =
          new IndexStatistics(c).of(List.of(c.index("sn", IndexType.EQUALITY))).get(0);
      assertThat(stats.recordCount()).isEqualTo(4);
      assertThat(stats.idCount()).isEqualTo(56);
      assertThat(stats.keysAtPercent(85))
          .extracting(k -> k.key().toString())
          .containsExactly("kim", "lee", "ng");
      assertThat(stats.keysAtPercent(90))
          .extracting(k -> k.key().toString())
          .containsExactly("kim", "ng");
      assertThat(stats.keysAtPercent(95)).extracting(k -> k.key().toString()).containsExactly("ng");
    }
  }

  /**
   * As OpenDJ: a changed limit leaves the index trusted and answering correctly, applies to reads
   * and writes at once, and says a rebuild would tighten it; only a new index is untrusted.
   */
  @Test
  void changingALimitKeepsTheIndexTrustedAndAddingAnIndexMakesOnlyItUntrusted() throws Exception {
    byte[] kim = "kim".getBytes(StandardCharsets.UTF_8);
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      for (int i = 0; i < 10; i++) {
        c.add(person(i, "Lee"));
      }
      for (int i = 10; i < 13; i++) {
        c.add(person(i, "Kim"));
      }
      AttributeIndex sn = c.index("sn", IndexType.EQUALITY);
      assertThat(sn.rebuildWouldTighten()).isFalse();

      backend.entryLimits().setOwnLimit("sn", 5);
      assertThat(sn.isTrusted()).isTrue();
      assertThat(c.state().isTrusted(sn.name())).isTrue();
      assertThat(sn.rebuildWouldTighten()).isTrue();
      // A list longer than the new limit reads as "all entries" at once; a shorter one still lists
      // its IDs.
      assertThat(sn.read(LEE).isDefined()).isFalse();
      assertThat(sn.read(kim).size()).isEqualTo(3);
      VerifyReport lowered = new IndexVerifier(c).verifyIndexes(List.of(sn));
      assertThat(lowered.mismatches()).isEmpty();
      assertThat(lowered.recoverableKeys()).containsExactly(sn.name() + " lee");
      // The next write of the key stores it over the limit, with its exact count.
      c.add(person(13, "Lee"));
      assertThat(c.state().overLimitCount(sn.name(), LEE)).isEqualTo(11);

      // Raised again: the over-limit key stays "all entries" (a superset) until a rebuild recounts
      // it.
      backend.entryLimits().setOwnLimit("sn", 100);
      assertThat(sn.read(LEE).isDefined()).isFalse();
      c.add(person(14, "Lee"));
      assertThat(c.state().overLimitCount(sn.name(), LEE)).isEqualTo(12);
      assertThat(new IndexVerifier(c).verifyIndexes(List.of(sn)).mismatches()).isEmpty();

      List<AttributeIndex> added = backend.addIndex(IndexSpec.of("givenName", IndexType.EQUALITY));
      AttributeIndex givenName = c.index("givenName", IndexType.EQUALITY);
      assertThat(added).containsExactly(givenName);
      assertThat(givenName.isTrusted()).isFalse();
      assertThat(sn.isTrusted()).isTrue();
      c.add(
          new Entry(person(15, "Lee").toLDIF()) {
            {
              addAttribute("givenName", "Ann");
            }
          });

      IndexRebuilder rebuilder = new IndexRebuilder(c);
      // Every sn index (equality and substring) follows the sn limit.
      assertThat(rebuilder.degradedIndexes())
          .contains(sn, givenName)
          .allMatch(i -> i == givenName || i.attribute().equals("sn"));
      rebuilder.rebuildDegraded(n -> {});
      assertThat(sn.isTrusted()).isTrue();
      assertThat(givenName.isTrusted()).isTrue();
      assertThat(c.indexes()).noneMatch(AttributeIndex::rebuildWouldTighten);
      assertThat(sn.builtWithLimit()).isEqualTo(100);
      assertThat(sn.read(LEE).size()).isEqualTo(13);
      assertThat(givenName.read("ann".getBytes(StandardCharsets.UTF_8)).size()).isEqualTo(1);
      assertThat(new IndexVerifier(c).verifyAll().isClean()).isTrue();
    }
    // Reopened with another limit than the records were built with: trusted, and the limit applies.
    try (Backend backend =
        Backend.open(
            StorageFixtures.settings(dir.resolve("db"), 4000)
                .withIndexes(
                    List.of(new IndexSpec("sn", java.util.Set.of(IndexType.EQUALITY), 5, 6))),
            Schema.getDefaultStandardSchema())) {
      AttributeIndex sn = backend.containerFor(BASE).index("sn", IndexType.EQUALITY);
      assertThat(sn.isTrusted()).isTrue();
      assertThat(sn.builtWithLimit()).isEqualTo(100);
      assertThat(sn.rebuildWouldTighten()).isTrue();
      assertThat(sn.read(LEE).isDefined()).isFalse();
    }
  }

  /** The rebuild runs while writers add, modify and delete entries sharing over-limit values. */
  @Test
  void onlineRebuildLosesNoConcurrentWriteAndCountsNothingTwice() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 20)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      for (int i = 0; i < 3000; i++) {
        c.add(person(i, "Name" + (i % 7)));
      }
      AtomicBoolean stop = new AtomicBoolean();
      // The rebuild starts once every writer is under way, so their writes straddle it.
      CountDownLatch writing = new CountDownLatch(3);
      ExecutorService writers = Executors.newFixedThreadPool(3);
      List<Future<Integer>> done = new ArrayList<>();
      for (int w = 0; w < 3; w++) {
        int writer = w;
        done.add(
            writers.submit(
                () -> {
                  int ops = 0;
                  for (int i = 0; !stop.get() && i < 100_000; i++, ops++) {
                    if (i == 30) {
                      writing.countDown();
                    }
                    int n = (i * 3 + writer) % 3000;
                    switch (i % 3) {
                      case 0 -> c.add(person(10_000 + writer * 100_000 + i, "Name" + (i % 5)));
                      case 1 ->
                          c.modify(
                              dn("uid=user." + n + ",ou=People,dc=example,dc=com"),
                              e -> {
                                e.setAttribute("sn", "Moved" + (n % 3));
                                return e;
                              });
                      default -> deleteIfPresent(c, 10_000 + writer * 100_000 + i - 2);
                    }
                  }
                  return ops;
                }));
      }
      assertThat(writing.await(60, TimeUnit.SECONDS)).as("writers under way").isTrue();
      new IndexRebuilder(c).rebuildAll(n -> {});
      stop.set(true);
      for (Future<Integer> f : done) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isPositive();
      }
      writers.shutdown();
      VerifyReport report = new IndexVerifier(c).verifyAll();
      assertThat(report.mismatches()).isEmpty();
      assertThat(c.indexes()).allMatch(AttributeIndex::isTrusted);
    }
  }

  /**
   * Subtree deletes during a rebuild remove entries the rebuild has not reached yet, some under
   * over-limit keys: neither a stale ID nor a count decremented for an ID never counted may remain.
   */
  @Test
  void onlineRebuildBesideSubtreeDeletesLeavesExactIndexes() throws Exception {
    int teams = 300;
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 20)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      for (int i = 0; i < 2000; i++) {
        c.add(person(i, "Name" + (i % 7)));
      }
      for (int t = 0; t < teams; t++) {
        String team = "ou=Team" + t + ",ou=People,dc=example,dc=com";
        c.add(
            new Entry(
                team,
                new com.unboundid.ldap.sdk.Attribute("objectClass", "top", "organizationalUnit"),
                new com.unboundid.ldap.sdk.Attribute("ou", "Team" + t)));
        for (int m = 0; m < 5; m++) {
          Entry member = person(100_000 + t * 10 + m, "Name" + (m % 3));
          member.setDN("uid=member." + m + "," + team);
          c.add(member);
        }
      }
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService deleter = Executors.newSingleThreadExecutor();
      Future<Integer> deleted =
          deleter.submit(
              () -> {
                int n = 0;
                for (int t = teams - 1; t >= 0 && !stop.get(); t--, n++) {
                  c.deleteSubtree(dn("ou=Team" + t + ",ou=People,dc=example,dc=com"));
                }
                return n;
              });
      new IndexRebuilder(c).rebuildAll(n -> {});
      stop.set(true);
      assertThat(deleted.get(60, TimeUnit.SECONDS)).isPositive();
      deleter.shutdown();
      VerifyReport report = new IndexVerifier(c).verifyAll();
      assertThat(report.mismatches()).isEmpty();
      assertThat(c.indexes()).allMatch(AttributeIndex::isTrusted);
    }
  }

  /**
   * Records built partly with each of two limits are correct: trusted, and a rebuild would tighten
   * them.
   */
  @Test
  void limitChangedDuringARebuildLeavesTheIndexTrustedAndLoose() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 20)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      for (int i = 0; i < 3000; i++) {
        c.add(person(i, "Name" + (i % 7)));
      }
      AttributeIndex sn = c.index("sn", IndexType.EQUALITY);
      AtomicBoolean changed = new AtomicBoolean();
      new IndexRebuilder(c)
          .rebuild(
              List.of(sn.name()),
              n -> {
                if (changed.compareAndSet(false, true)) {
                  backend.entryLimits().setOwnLimit("sn", 1000);
                }
              });
      assertThat(changed).isTrue();
      assertThat(sn.isTrusted()).isTrue();
      assertThat(sn.builtWithLimit()).isEqualTo(20);
      assertThat(sn.rebuildWouldTighten()).isTrue();
      assertThat(new IndexVerifier(c).verifyIndexes(List.of(sn)).mismatches()).isEmpty();
      new IndexRebuilder(c).rebuildDegraded(n -> {});
      assertThat(sn.rebuildWouldTighten()).isFalse();
      assertThat(sn.read("name1".getBytes(StandardCharsets.UTF_8)).size()).isEqualTo(429);
      assertThat(new IndexVerifier(c).verifyIndexes(List.of(sn)).mismatches()).isEmpty();
    }
  }

  private static void deleteIfPresent(EntryContainer c, long i) throws LDAPException {
    try {
      c.delete(dn("uid=user." + i + ",ou=People,dc=example,dc=com"));
    } catch (LDAPException e) {
      if (e.getResultCode() != com.unboundid.ldap.sdk.ResultCode.NO_SUCH_OBJECT) {
        throw e;
      }
    }
  }

  @Test
  void readOnlyBackendReadsBesideTheWriterAndRefusesWrites() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      c.add(person(1, "Lee"));
      assertThatThrownBy(() -> StorageFixtures.open(dir.resolve("db"), 4000))
          .hasMessageContaining("in use by another process")
          .hasMessageContaining("exclusive access");
      try (Backend reader =
          Backend.openReadOnly(
              StorageFixtures.settings(dir.resolve("db"), 4000),
              Schema.getDefaultStandardSchema())) {
        EntryContainer r = reader.containerFor(BASE);
        assertThat(r.get(dn("uid=user.1,ou=People,dc=example,dc=com")).getAttributeValue("sn"))
            .isEqualTo("Lee");
        c.add(person(2, "Lee"));
        reader.catchUp();
        assertThat(r.idOf(dn("uid=user.2,ou=People,dc=example,dc=com"))).isPositive();
        assertThat(new IndexVerifier(r).verifyAll().isClean()).isTrue();
        assertThatThrownBy(() -> r.add(person(3, "Lee"))).hasMessageContaining("read-only");
        assertThatThrownBy(() -> new IndexRebuilder(r).rebuildAll(n -> {}))
            .hasMessageContaining("rebuilding indexes needs exclusive access");
      }
    }
  }
}
