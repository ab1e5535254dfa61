package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Searches that may run on the event loop (equality filters, base scope, no controls) answer
 * exactly as on a worker, whether they stay there (a few candidates) or give way to a worker (many
 * candidates, a backend without indexes): each is answered once and counted once, and so is a
 * pipelined mix of both kinds on one connection.
 */
class InlineSearchIT {
  private static final String PEOPLE = "ou=Inline," + TestServer.BASE;
  private static final int PEOPLE_COUNT = 40;

  @TempDir static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(TestServer.organizationalUnit(PEOPLE));
    for (int i = 0; i < PEOPLE_COUNT; i++) {
      entries.add(
          new Entry(
              "uid=p" + i + "," + PEOPLE,
              new Attribute(
                  "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
              new Attribute("uid", "p" + i),
              new Attribute("cn", "Person " + i),
              new Attribute("sn", "Common")));
    }
    server = TestServer.start(dir, entries);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void quickAndLongSearchesAnswerAsOnAWorkerAndAreCountedOnce() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      long requestedBefore = searchCount(root, "searchOpsInitiated");
      long completedBefore = searchCount(root, "searchOpsCompleted");

      assertThat(root.search(TestServer.BASE, SearchScope.SUB, "(uid=p7)").getSearchEntries())
          .extracting(Entry::getDN)
          .containsExactly("uid=p7," + PEOPLE);
      // Past the inline bound: handed to a worker, which answers with every entry.
      assertThat(root.search(TestServer.BASE, SearchScope.SUB, "(sn=Common)").getEntryCount())
          .isEqualTo(PEOPLE_COUNT);
      assertThat(
              root.search(TestServer.BASE, SearchScope.SUB, "(&(sn=Common)(uid=p3))")
                  .getEntryCount())
          .isEqualTo(1);
      assertThat(root.search("uid=p5," + PEOPLE, SearchScope.BASE, "(objectClass=*)", "cn"))
          .satisfies(
              r ->
                  assertThat(r.getSearchEntries().get(0).getAttributeValue("cn"))
                      .isEqualTo("Person 5"));
      // A backend without indexes (cn=monitor) is walked on a worker.
      assertThat(root.search("cn=monitor", SearchScope.SUB, "(cn=Operations)").getEntryCount())
          .isEqualTo(1);
      // Not tried inline: a control.
      SearchRequest paged = new SearchRequest(TestServer.BASE, SearchScope.SUB, "(sn=Common)");
      paged.addControl(new SimplePagedResultsControl(100));
      assertThat(root.search(paged).getEntryCount()).isEqualTo(PEOPLE_COUNT);

      // The counts are read by searches too: between the two readings of each count, the other
      // count's first reading and its own second one. Two searches gave way to a worker: had their
      // attempts counted, the initiated count would be two more.
      int searches = 6 + 2;
      assertThat(searchCount(root, "searchOpsInitiated") - requestedBefore).isEqualTo(searches);
      // A search counts as completed once its response has left, so each reading may miss the
      // search just before it; a withdrawn attempt is never counted as completed.
      assertThat(searchCount(root, "searchOpsCompleted") - completedBefore)
          .isBetween((long) searches - 1, (long) searches + 1);
    }
  }

  @Test
  void pipelinedQuickAndLongSearchesOnOneConnectionAreEachAnsweredOnce() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      List<com.unboundid.ldap.sdk.AsyncRequestID> ids = new ArrayList<>();
      List<List<Integer>> counts = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        String filter = i % 3 == 0 ? "(sn=Common)" : "(uid=p" + i + ")";
        List<Integer> count = new ArrayList<>();
        counts.add(count);
        ids.add(
            root.asyncSearch(
                new SearchRequest(
                    new com.unboundid.ldap.sdk.AsyncSearchResultListener() {
                      @Override
                      public void searchResultReceived(
                          com.unboundid.ldap.sdk.AsyncRequestID id, SearchResult result) {
                        synchronized (count) {
                          count.add(result.getEntryCount());
                        }
                      }

                      @Override
                      public void searchEntryReturned(
                          com.unboundid.ldap.sdk.SearchResultEntry entry) {}

                      @Override
                      public void searchReferenceReturned(
                          com.unboundid.ldap.sdk.SearchResultReference reference) {}
                    },
                    TestServer.BASE,
                    SearchScope.SUB,
                    filter,
                    "1.1")));
      }
      for (com.unboundid.ldap.sdk.AsyncRequestID id : ids) {
        id.get();
      }
      for (int i = 0; i < counts.size(); i++) {
        synchronized (counts.get(i)) {
          assertThat(counts.get(i))
              .as("search %d", i)
              .containsExactly(i % 3 == 0 ? PEOPLE_COUNT : 1);
        }
      }
    }
  }

  private static long searchCount(LDAPConnection root, String attribute) throws Exception {
    return Long.parseLong(
        root.getEntry("cn=Operations,cn=monitor", attribute).getAttributeValue(attribute));
  }
}
