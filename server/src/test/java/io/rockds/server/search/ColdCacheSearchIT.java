package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Searches that run on a network event loop read from memory only: on a cache that holds nothing
 * yet (a restart with no preload), a candidate on disk hands the search to a worker, and the client
 * gets the same answer as from a warm cache, never busy.
 */
class ColdCacheSearchIT {
  private static final String BACKEND = "ds-cfg-backend-id=userRoot,cn=Backends,cn=config";
  private static final int USERS = 200;

  @TempDir Path dir;

  @Test
  void searchesOnAColdCacheAnswerAsOnAWarmOne() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    for (int i = 0; i < USERS; i++) {
      entries.add(
          new Entry(
              "dn: uid=user." + i + ",ou=People," + TestServer.BASE,
              "objectClass: inetOrgPerson",
              "uid: user." + i,
              "cn: User " + i,
              "sn: Number" + i,
              "description: the " + i + "th user"));
    }
    try (TestServer server = TestServer.start(dir, entries)) {
      try (LDAPConnection c = server.rootConnection()) {
        c.modify(
            BACKEND,
            new Modification(ModificationType.REPLACE, "ds-cfg-preload-time-limit", "0 s"));
      }
      server.restart();
      try (LDAPConnection c = server.rootConnection()) {
        SearchRequest first =
            new SearchRequest(TestServer.BASE, SearchScope.SUB, "(uid=user.100)", "1.1");
        long before = handedToWorker(c);
        assertThat(c.search(first).getEntryCount()).isOne();
        assertThat(handedToWorker(c))
            .as("the candidate was on disk: the search gave way to a worker")
            .isEqualTo(before + 1);
        assertThat(c.search(first).getEntryCount()).isOne();
        assertThat(handedToWorker(c))
            .as("then in memory: answered on the event loop")
            .isEqualTo(before + 1);
        for (int i = 0; i < USERS; i += 7) {
          String dn = "uid=user." + i + ",ou=People," + TestServer.BASE;
          SearchResult dnOnly =
              c.search(
                  new SearchRequest(
                      TestServer.BASE, SearchScope.SUB, "(uid=user." + i + ")", "1.1"));
          assertThat(dnOnly.getSearchEntries())
              .extracting(SearchResultEntry::getDN)
              .containsExactly(dn);
          SearchResult all =
              c.search(TestServer.BASE, SearchScope.SUB, "(uid=user." + (i + 1) + ")");
          assertThat(all.getSearchEntries()).hasSize(1);
          assertThat(all.getSearchEntries().get(0).getAttributeValue("description"))
              .isEqualTo("the " + (i + 1) + "th user");
          SearchResult projected =
              c.search(TestServer.BASE, SearchScope.SUB, "(uid=user." + (i + 2) + ")", "sn");
          assertThat(projected.getSearchEntries().get(0).getAttributeValue("sn"))
              .isEqualTo("Number" + (i + 2));
        }
      }
    }
  }

  private int monitorReads;

  /**
   * Searches handed to a worker, less the reads of the counter itself (a search of cn=monitor is
   * always handed over, and counted before it answers).
   */
  private long handedToWorker(LDAPConnection c) throws Exception {
    monitorReads++;
    return c.getEntry("cn=Operations,cn=monitor", "searchOpsHandedToWorker")
            .getAttributeValueAsLong("searchOpsHandedToWorker")
        - monitorReads;
  }
}
