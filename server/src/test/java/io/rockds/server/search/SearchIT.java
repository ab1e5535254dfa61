package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.MatchedValuesFilter;
import com.unboundid.ldap.sdk.controls.MatchedValuesRequestControl;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.ServerSideSortResponseControl;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import com.unboundid.ldap.sdk.controls.SortKey;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Searches against a real server holding 10,000 people: limits, unindexed refusal, paging, sorting,
 * debugsearchindex.
 */
class SearchIT {
  private static final int PEOPLE = 10_000;
  private static final String PEOPLE_DN = "ou=People," + TestServer.BASE;
  private static final String SORT_DN = "ou=Sort," + TestServer.BASE;
  private static final String READER_DN = "uid=reader," + TestServer.BASE;
  private static final String[] SURNAMES = {
    "Smith", "Lee", "Brown", "Jones", "Nguyen", "Garcia", "Martin", "Müller", "Rossi", "Kim",
    "Dubois", "Wang"
  };

  /** Names whose order depends on case folding and on UTF-8 code points. */
  private static final String[] SORT_NAMES = {
    "bob", "Alice", "Ängel", "zoë", "Zack", "éclair", "Émile", "Ørjan", "alice b", "BOBBY"
  };

  private static final List<String> SORTED_NAMES =
      List.of(
          "Alice", "alice b", "bob", "BOBBY", "Zack", "zoë", "Ängel", "éclair", "Émile", "Ørjan");

  @TempDir static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(
        new Entry(
            READER_DN,
            new Attribute("objectClass", "top", "person", "inetOrgPerson"),
            new Attribute("uid", "reader"),
            new Attribute("cn", "Reader"),
            new Attribute("sn", "Reader"),
            new Attribute("userPassword", "reader-secret")));
    entries.add(TestServer.organizationalUnit(SORT_DN));
    for (int i = 0; i < SORT_NAMES.length; i++) {
      entries.add(
          new Entry(
              "uid=sort." + i + "," + SORT_DN,
              new Attribute("objectClass", "top", "person", "inetOrgPerson"),
              new Attribute("uid", "sort." + i),
              new Attribute("cn", SORT_NAMES[i]),
              new Attribute("sn", "Sorted"),
              new Attribute("mail", "sort." + i + "@a.com", "sort." + i + "@b.com")));
    }
    server = TestServer.start(dir, entries);
    addPeopleConcurrently();
  }

  /**
   * Adds the people over LDAP from several connections at once: with synchronous commits, RocksDB
   * groups concurrent writes into one WAL sync, so this is many times faster than one by one.
   */
  private static void addPeopleConcurrently() throws Exception {
    int connections = 16;
    ExecutorService pool = Executors.newFixedThreadPool(connections);
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (int c = 0; c < connections; c++) {
        int first = c;
        done.add(
            pool.submit(
                () -> {
                  try (LDAPConnection root = server.rootConnection()) {
                    for (int i = first; i < PEOPLE; i += connections) {
                      root.add(person(i));
                    }
                  }
                  return null;
                }));
      }
      for (Future<Void> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static Entry person(int i) {
    return new Entry(
        "uid=user." + i + "," + PEOPLE_DN,
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("uid", "user." + i),
        new Attribute("cn", "User " + i),
        new Attribute("sn", SURNAMES[i % SURNAMES.length]),
        new Attribute("mail", "user." + i + "@example.com"),
        new Attribute("description", "number " + i));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static LDAPConnection reader() throws LDAPException {
    return new LDAPConnection("127.0.0.1", server.ldapPort(), READER_DN, "reader-secret");
  }

  // ---------------------------------------------------------------- unindexed searches

  @Test
  void unindexedSearchIsRefusedForAnOrdinaryUserAndAcceptedForRoot() throws Exception {
    try (LDAPConnection reader = reader();
        LDAPConnection root = server.rootConnection()) {
      assertThatThrownBy(() -> reader.search(PEOPLE_DN, SearchScope.SUB, "(description=number 7)"))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
                assertThat(e.getDiagnosticMessage()).contains("unindexed");
              });
      assertThat(reader.search(PEOPLE_DN, SearchScope.SUB, "(uid=user.7)").getEntryCount())
          .isEqualTo(1);
      assertThat(root.search(PEOPLE_DN, SearchScope.SUB, "(description=number 7)").getEntryCount())
          .isEqualTo(1);
      // A small scope is indexed by itself: no privilege needed.
      assertThat(reader.search(SORT_DN, SearchScope.ONE, "(description=*)").getEntryCount())
          .isZero();
    }
  }

  @Test
  void aScanFindsTheSameEntriesWhateverTheAttributesAsked() throws Exception {
    // Unindexed: the scan tests the filter on the attributes it names, and with 1.1 sends a match's
    // DN
    // without reading the whole entry; both must find what the search asking for everything finds.
    String filter = "(&(description=number 7*)(!(sn=Smith)))";
    try (LDAPConnection root = server.rootConnection()) {
      List<String> all =
          root.search(PEOPLE_DN, SearchScope.SUB, filter, "*").getSearchEntries().stream()
              .map(e -> e.getDN())
              .sorted()
              .toList();
      List<String> dns =
          root.search(PEOPLE_DN, SearchScope.SUB, filter, "1.1").getSearchEntries().stream()
              .peek(e -> assertThat(e.getAttributes()).isEmpty())
              .map(e -> e.getDN())
              .sorted()
              .toList();
      List<String> named =
          root.search(PEOPLE_DN, SearchScope.SUB, filter, "uid").getSearchEntries().stream()
              .peek(e -> assertThat(e.getAttributeValue("uid")).isNotNull())
              .map(e -> e.getDN())
              .sorted()
              .toList();
      assertThat(all).hasSizeGreaterThan(100).isEqualTo(dns).isEqualTo(named);
    }
  }

  // ---------------------------------------------------------------- limits

  @Test
  void sizeLimitReturnsTheAllowedEntriesThenCode4() throws Exception {
    try (LDAPConnection reader = reader()) {
      SearchRequest request = new SearchRequest(PEOPLE_DN, SearchScope.SUB, "(sn=Smith)", "uid");
      request.setSizeLimit(5);
      assertThatThrownBy(() -> reader.search(request))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.SIZE_LIMIT_EXCEEDED);
                assertThat(e.getEntryCount()).isEqualTo(5);
              });
    }
  }

  @Test
  void entriesSentInSeveralBatchesAllArriveBeforeTheSizeLimitResult() throws Exception {
    // 700 entries of ~100 bytes span several 16 kB batches; the error result must follow the last
    // one.
    try (LDAPConnection reader = reader()) {
      SearchRequest request =
          new SearchRequest(PEOPLE_DN, SearchScope.SUB, "(sn=Smith)", "uid", "cn", "sn");
      request.setSizeLimit(700);
      assertThatThrownBy(() -> reader.search(request))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.SIZE_LIMIT_EXCEEDED);
                assertThat(e.getSearchEntries())
                    .hasSize(700)
                    .allSatisfy(
                        entry -> assertThat(entry.getAttributeValue("sn")).isEqualTo("Smith"));
                assertThat(
                        e.getSearchEntries().stream()
                            .map(entry -> entry.getAttributeValue("uid"))
                            .distinct())
                    .hasSize(700);
              });
      assertThat(reader.search(PEOPLE_DN, SearchScope.SUB, "(sn=Smith)", "uid").getEntryCount())
          .isGreaterThan(700);
    }
  }

  @Test
  void candidatesOverTheLookthroughLimitGiveCode11() throws Exception {
    // Seven surnames: 4 x 834 + 3 x 833 candidates > the default lookthrough limit of 5000.
    String filter = "(|(sn=Smith)(sn=Lee)(sn=Brown)(sn=Jones)(sn=Nguyen)(sn=Garcia)(sn=Martin))";
    try (LDAPConnection reader = reader();
        LDAPConnection root = server.rootConnection()) {
      assertThatThrownBy(() -> reader.search(PEOPLE_DN, SearchScope.SUB, filter, "1.1"))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.ADMIN_LIMIT_EXCEEDED));
      assertThat(root.search(PEOPLE_DN, SearchScope.SUB, filter, "1.1").getEntryCount())
          .isEqualTo(5835);
    }
  }

  // ---------------------------------------------------------------- debugsearchindex

  @Test
  void debugSearchIndexReturnsTheTraceToPrivilegedUsersOnly() throws Exception {
    try (LDAPConnection reader = reader();
        LDAPConnection root = server.rootConnection()) {
      SearchResult traced =
          root.search(
              TestServer.BASE,
              SearchScope.SUB,
              "(|(uid=user.19)(uid=user.20))",
              "debugsearchindex");
      assertThat(traced.getEntryCount()).isEqualTo(1);
      SearchResultEntry debug = traced.getSearchEntries().get(0);
      assertThat(debug.getDN()).isEqualTo("cn=debugsearch");
      assertThat(debug.getAttributeValue("debugsearchindex"))
          .isEqualTo(
              "{\"filter\":{\"union\":["
                  + "{\"filter\":\"(uid=user.19)\",\"index\":\"uid.caseIgnoreMatch\",\"exact\":\"user.19\",\"candidates\":1},"
                  + "{\"filter\":\"(uid=user.20)\",\"index\":\"uid.caseIgnoreMatch\",\"exact\":\"user.20\",\"candidates\":1}],"
                  + "\"candidates\":2},\"final\":2}");
      SearchResult plain =
          reader.search(TestServer.BASE, SearchScope.SUB, "(uid=user.19)", "debugsearchindex");
      assertThat(plain.getEntryCount()).isEqualTo(1);
      assertThat(plain.getSearchEntries().get(0).getDN()).isEqualTo("uid=user.19," + PEOPLE_DN);
      assertThat(plain.getSearchEntries().get(0).getAttributes()).isEmpty();
    }
  }

  // ---------------------------------------------------------------- paged results

  @Test
  void pagingThroughTenThousandEntriesWithPageSizeSevenReturnsEachOnce() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      assertThat(pageThrough(root, "(objectClass=person)", 7)).hasSize(PEOPLE);
      assertThat(pageThrough(root, "(sn=Smith)", 7)).hasSize(834);
    }
  }

  private static Set<String> pageThrough(LDAPConnection connection, String filter, int pageSize)
      throws Exception {
    Set<String> seen = new HashSet<>();
    ASN1OctetString cookie = null;
    for (int page = 0; page < PEOPLE; page++) {
      SearchRequest request = new SearchRequest(PEOPLE_DN, SearchScope.ONE, filter, "1.1");
      request.addControl(new SimplePagedResultsControl(pageSize, cookie, true));
      SearchResult result = connection.search(request);
      assertThat(result.getEntryCount()).isLessThanOrEqualTo(pageSize);
      for (SearchResultEntry e : result.getSearchEntries()) {
        assertThat(seen.add(e.getDN())).as("returned twice: %s", e.getDN()).isTrue();
      }
      cookie = SimplePagedResultsControl.get(result).getCookie();
      if (cookie.getValueLength() == 0) {
        return seen;
      }
    }
    throw new AssertionError("paging did not end");
  }

  @Test
  void tamperedOrForeignCookiesAreRefused() throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection other = server.rootConnection()) {
      SearchRequest first = new SearchRequest(PEOPLE_DN, SearchScope.ONE, "(sn=Lee)", "1.1");
      first.addControl(new SimplePagedResultsControl(3));
      ASN1OctetString cookie = SimplePagedResultsControl.get(root.search(first)).getCookie();
      byte[] tampered = cookie.getValue().clone();
      tampered[0] ^= 1;
      assertThat(pagedError(root, "(sn=Lee)", new ASN1OctetString(tampered)))
          .isEqualTo(ResultCode.PROTOCOL_ERROR);
      assertThat(pagedError(other, "(sn=Lee)", cookie)).isEqualTo(ResultCode.PROTOCOL_ERROR);
      assertThat(pagedError(root, "(sn=Kim)", cookie)).isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
    }
  }

  private static ResultCode pagedError(
      LDAPConnection connection, String filter, ASN1OctetString cookie) throws LDAPException {
    SearchRequest request = new SearchRequest(PEOPLE_DN, SearchScope.ONE, filter, "1.1");
    request.addControl(new SimplePagedResultsControl(3, cookie, true));
    try {
      connection.search(request);
      return ResultCode.SUCCESS;
    } catch (LDAPSearchException e) {
      return e.getResultCode();
    }
  }

  // ---------------------------------------------------------------- sorting and matched values

  @Test
  void sortOrderFollowsCaseFoldingAndCodePoints() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      // cn has no ORDERING rule: the sort names one (RFC 2891 section 1.1).
      SortKey byCn = new SortKey("cn", "caseIgnoreOrderingMatch", false);
      assertThat(sortedNames(root, byCn, 0)).containsExactlyElementsOf(SORTED_NAMES);
      List<String> reversed = new ArrayList<>(SORTED_NAMES);
      java.util.Collections.reverse(reversed);
      assertThat(sortedNames(root, new SortKey("cn", "2.5.13.3", true), 0))
          .containsExactlyElementsOf(reversed);
      assertThat(sortedNames(root, byCn, 3)).containsExactlyElementsOf(SORTED_NAMES);
    }
  }

  /** The cn values in the order returned, paging with {@code pageSize} when it is not 0. */
  private static List<String> sortedNames(LDAPConnection connection, SortKey key, int pageSize)
      throws Exception {
    List<String> names = new ArrayList<>();
    ASN1OctetString cookie = null;
    do {
      SearchRequest request =
          new SearchRequest(SORT_DN, SearchScope.ONE, "(objectClass=person)", "cn");
      request.addControl(new ServerSideSortRequestControl(true, key));
      if (pageSize > 0) {
        request.addControl(new SimplePagedResultsControl(pageSize, cookie, true));
      }
      SearchResult result = connection.search(request);
      assertThat(ServerSideSortResponseControl.get(result).getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
      result.getSearchEntries().forEach(e -> names.add(e.getAttributeValue("cn")));
      cookie =
          pageSize > 0 ? SimplePagedResultsControl.get(result).getCookie() : new ASN1OctetString();
    } while (cookie.getValueLength() > 0);
    return names;
  }

  @Test
  void sortOnAnUnknownAttributeFailsWhenCriticalOnly() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      SearchRequest critical =
          new SearchRequest(SORT_DN, SearchScope.ONE, "(objectClass=person)", "cn");
      critical.addControl(
          new ServerSideSortRequestControl(true, new SortKey("noSuchAttributeType")));
      assertThatThrownBy(() -> root.search(critical))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e ->
                  assertThat(e.getResultCode())
                      .isEqualTo(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION));
      SearchRequest optional =
          new SearchRequest(SORT_DN, SearchScope.ONE, "(objectClass=person)", "cn");
      optional.addControl(
          new ServerSideSortRequestControl(false, new SortKey("noSuchAttributeType")));
      SearchResult result = root.search(optional);
      assertThat(result.getEntryCount()).isEqualTo(SORT_NAMES.length);
      assertThat(ServerSideSortResponseControl.get(result).getResultCode())
          .isEqualTo(ResultCode.NO_SUCH_ATTRIBUTE);
    }
  }

  @Test
  void sortOnAnAttributeWithoutOrderingRuleIsInappropriateMatching() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      SearchRequest optional =
          new SearchRequest(SORT_DN, SearchScope.ONE, "(objectClass=person)", "cn");
      optional.addControl(new ServerSideSortRequestControl(false, new SortKey("cn")));
      SearchResult result = root.search(optional);
      assertThat(result.getEntryCount()).isEqualTo(SORT_NAMES.length);
      assertThat(ServerSideSortResponseControl.get(result).getResultCode())
          .isEqualTo(ResultCode.INAPPROPRIATE_MATCHING);
    }
  }

  @Test
  void matchedValuesReturnOnlyTheMatchingValues() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      SearchRequest request =
          new SearchRequest(SORT_DN, SearchScope.ONE, "(uid=sort.1)", "mail", "uid");
      request.addControl(
          new MatchedValuesRequestControl(
              MatchedValuesFilter.createSubstringFilter("mail", null, null, "@b.com")));
      SearchResultEntry entry = root.search(request).getSearchEntries().get(0);
      assertThat(entry.getAttributeValues("mail")).containsExactly("sort.1@b.com");
      assertThat(entry.getAttributeValue("uid")).isEqualTo("sort.1");
    }
  }
}
