package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * What a search reads from RocksDB, counted by RocksDB's own statistics (every point read of any
 * tree is one {@code NUMBER_KEYS_READ}): the base entry's dn2id key at most once per search, and
 * not at all for an indexed search that finds entries in its scope (an entry proves its ancestors
 * exist), and each entry of an unindexed scan once, also the entries that match (they are completed
 * from the record the filter was tested on, not read again).
 */
class SearchStorageReadsIT {
  private static final String LEVEL_DN = "ou=Level," + TestServer.BASE;
  private static final String SCAN_DN = "ou=Scan," + TestServer.BASE;
  private static final int CHILDREN = 12;

  @TempDir static Path dir;
  static TestServer server;
  static Statistics statistics;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    for (String ou : List.of(LEVEL_DN, SCAN_DN)) {
      entries.add(TestServer.organizationalUnit(ou));
      for (int i = 0; i < CHILDREN; i++) {
        entries.add(
            new Entry(
                "uid=" + i + "." + ou.hashCode() + "," + ou,
                new Attribute(
                    "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("uid", i + "." + ou.hashCode()),
                new Attribute("cn", "Person " + i),
                new Attribute("sn", "Person"),
                // description is not indexed: a filter on it alone is an unindexed scan.
                new Attribute("description", i % 3 == 0 ? "scan-match" : "other " + i)));
      }
    }
    server = TestServer.start(dir, entries);
    statistics =
        server.server().backends().containerFor(new DN(TestServer.BASE)).backend().statistics();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void aBaseSearchReadsTheBaseEntryOnce() throws Exception {
    assertThat(pointReads(LEVEL_DN, SearchScope.BASE, "(objectClass=*)", 1))
        .as("the base's dn2id key and its record")
        .isEqualTo(2);
  }

  @Test
  void aOneLevelSearchWithUnindexedCandidatesReadsItsBaseOnce() throws Exception {
    // The filter gives no candidates, so the scope's IDs are read from dn2id below the base.
    assertThat(pointReads(LEVEL_DN, SearchScope.ONE, "(description=scan-match)", CHILDREN / 3))
        .as("the base's dn2id key, then each child's record once, the matching ones too")
        .isEqualTo(1 + CHILDREN);
  }

  @Test
  void anIndexedSearchOfTheWholeSuffixDoesNotReadItsBase() throws Exception {
    String uid = "3." + LEVEL_DN.hashCode();
    assertThat(pointReads(TestServer.BASE, SearchScope.SUB, "(uid=" + uid + ")", 1))
        .as("the uid index key and the entry's record: no dn2id read of the suffix")
        .isEqualTo(2);
  }

  @Test
  void anIndexedSearchBelowTheSuffixDoesNotReadItsBase() throws Exception {
    String uid = "3." + LEVEL_DN.hashCode();
    for (SearchScope scope : List.of(SearchScope.ONE, SearchScope.SUB)) {
      assertThat(pointReads(LEVEL_DN, scope, "(uid=" + uid + ")", 1))
          .as("%s: the uid index key and the entry's record: no dn2id read of the base", scope)
          .isEqualTo(2);
    }
  }

  @Test
  void anIndexedSearchOfTheWholeSuffixThatFindsNothingReadsItsBaseToAnswer() throws Exception {
    assertThat(pointReads(TestServer.BASE, SearchScope.SUB, "(uid=nobody)", 0))
        .as("the uid index key, then the suffix's dn2id key to tell an empty result from 32")
        .isEqualTo(2);
  }

  @Test
  void anIndexedSearchThatFindsOnlyEntriesOutOfScopeReadsItsBaseToAnswer() throws Exception {
    String elsewhere = "3." + SCAN_DN.hashCode();
    assertThat(pointReads(LEVEL_DN, SearchScope.SUB, "(uid=" + elsewhere + ")", 0))
        .as("the uid index key, the candidate's record (out of scope), then the base's dn2id key")
        .isEqualTo(3);
  }

  @Test
  void anIndexedSearchOfAMissingBaseIsNoSuchObjectWithTheMatchedDn() throws Exception {
    String uid = "3." + LEVEL_DN.hashCode();
    try (LDAPConnection root = server.rootConnection()) {
      assertThatThrownBy(
              () -> root.search("ou=Missing," + LEVEL_DN, SearchScope.SUB, "(uid=" + uid + ")"))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.NO_SUCH_OBJECT);
                assertThat(e.getMatchedDN()).isEqualToIgnoringCase(LEVEL_DN);
              });
    }
  }

  @Test
  void aSearchOfAMissingSuffixIsNoSuchObjectAlsoWhenIndexed(@TempDir Path emptyDir)
      throws Exception {
    try (TestServer empty = TestServer.start(emptyDir, List.of());
        LDAPConnection root = empty.rootConnection()) {
      for (String filter : List.of("(uid=nobody)", "(objectClass=*)")) {
        assertThatThrownBy(() -> root.search(TestServer.BASE, SearchScope.SUB, filter))
            .as(filter)
            .isInstanceOfSatisfying(
                LDAPSearchException.class,
                e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.NO_SUCH_OBJECT));
      }
    }
  }

  /**
   * The point reads of a search run a second time (the first warms the JIT and the block cache; the
   * server's entry cache keeps no small entries, so both read the same keys).
   */
  private static long pointReads(String base, SearchScope scope, String filter, int expectedEntries)
      throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      root.search(base, scope, filter);
      long before = keysRead();
      assertThat(root.search(base, scope, filter).getEntryCount()).isEqualTo(expectedEntries);
      return keysRead() - before;
    }
  }

  @Test
  void anUnindexedScanReadsEachEntryOnceAlsoTheMatchingOnes() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      long before = keysRead();
      List<SearchResultEntry> first =
          root.search(TestServer.BASE, SearchScope.SUB, "(description=scan-match)")
              .getSearchEntries();
      long firstReads = keysRead() - before;
      before = keysRead();
      List<SearchResultEntry> second =
          root.search(TestServer.BASE, SearchScope.SUB, "(description=scan-match)")
              .getSearchEntries();
      long secondReads = keysRead() - before;

      assertThat(first).hasSize(2 * CHILDREN / 3);
      assertThat(second).hasSize(first.size());
      // A scan caches nothing, so the second walk reads what the first did; had the matching
      // entries been read a second time (and cached), the first would have read more.
      assertThat(firstReads).isEqualTo(secondReads);
      assertThat(firstReads)
          .as("at most the base's dn2id key and each entry of the suffix once")
          .isLessThanOrEqualTo(1 + 3 + 2 * (1 + CHILDREN));
    }
  }

  private static long keysRead() {
    return statistics.getTickerCount(TickerType.NUMBER_KEYS_READ);
  }
}
