package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.SortKey;
import com.unboundid.ldap.sdk.controls.VirtualListViewRequestControl;
import com.unboundid.ldap.sdk.controls.VirtualListViewResponseControl;
import io.rockds.server.TestServer;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.VlvIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A VLV index created over LDAP as dsconfig does (cn=config), rebuilt by a task, then serving VLV
 * searches (debugsearchindex names it) with the same pages as the in-memory sort, and kept right by
 * every add, delete, modify and rename.
 */
class VlvIndexIT {
  static final String PEOPLE_DN = "ou=People," + TestServer.BASE;
  static final String INDEX_DN =
      "ds-cfg-name=byName,cn=VLV Index,ds-cfg-backend-id=userRoot,cn=Backends,cn=config";
  static final int PEOPLE = 300;

  @TempDir static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    for (int n = 0; n < PEOPLE; n++) {
      entries.add(person((n * 17) % PEOPLE, null));
    }
    server = TestServer.start(dir, entries);
    try (LDAPConnection root = server.rootConnection()) {
      root.add(
          new Entry(
              INDEX_DN,
              new Attribute("objectClass", "top", "ds-cfg-backend-vlv-index"),
              new Attribute("ds-cfg-name", "byName"),
              new Attribute("ds-cfg-base-dn", PEOPLE_DN),
              new Attribute("ds-cfg-scope", "single-level"),
              new Attribute("ds-cfg-filter", "(objectClass=person)"),
              new Attribute("ds-cfg-sort-order", "+sn +givenName")));
    }
  }

  static Entry person(int i, String sn) {
    return new Entry(
        "uid=p" + i + "," + PEOPLE_DN,
        new Attribute("objectClass", "top", "person", "inetOrgPerson"),
        new Attribute("uid", "p" + i),
        new Attribute("cn", "P " + i),
        new Attribute("sn", sn != null ? sn : String.format("Person%03d", i / 2)),
        new Attribute("givenName", String.format("G%03d", PEOPLE - i)));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static SearchRequest request(VirtualListViewRequestControl vlv, String... attributes)
      throws LDAPException {
    SearchRequest request =
        new SearchRequest(PEOPLE_DN, SearchScope.ONE, "(objectClass=person)", attributes);
    request.addControl(
        new ServerSideSortRequestControl(
            true,
            new SortKey("sn", "caseIgnoreOrderingMatch", false),
            new SortKey("givenName", "caseIgnoreOrderingMatch", false)));
    request.addControl(vlv);
    return request;
  }

  static List<String> uids(LDAPConnection c, int offset, int before, int after)
      throws LDAPException {
    SearchResult result =
        c.search(request(new VirtualListViewRequestControl(offset, before, after, 0, null), "uid"));
    List<String> uids = new ArrayList<>();
    for (SearchResultEntry e : result.getSearchEntries()) {
      uids.add(e.getAttributeValue("uid"));
    }
    return uids;
  }

  static String trace(LDAPConnection c) throws LDAPException {
    return c.search(
            request(new VirtualListViewRequestControl(1, 0, 9, 0, null), "debugsearchindex"))
        .getSearchEntries()
        .get(0)
        .getAttributeValue("debugsearchindex");
  }

  static VlvIndex index() throws LDAPException {
    EntryContainer container = server.server().backends().containerFor(new DN(TestServer.BASE));
    return container.vlvIndexNamed("byName");
  }

  @Test
  void indexServesPagesAndFollowsEveryWrite() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      // Created over entries: untrusted, so the pages come from the in-memory sort until rebuilt.
      assertThat(index().isTrusted()).isFalse();
      assertThat(trace(root)).doesNotContain("\"vlv\"");
      List<String> inMemory = uids(root, 1, 0, PEOPLE);
      List<String> middleInMemory = uids(root, 150, 3, 6);

      String task = "ds-task-id=vlv,cn=Scheduled Tasks,cn=tasks";
      root.add(
          new Entry(
              task,
              new Attribute("objectClass", "top", "ds-task", "ds-task-rebuild"),
              new Attribute("ds-task-id", "vlv"),
              new Attribute("ds-task-rebuild-base-dn", TestServer.BASE),
              new Attribute("ds-task-rebuild-index", "vlv.byName")));
      assertThat(awaitEnd(root, task)).isEqualTo("COMPLETED_SUCCESSFULLY");
      assertThat(index().isTrusted()).isTrue();
      assertThat(trace(root)).isEqualTo("{\"vlv\":\"byName\",\"candidates\":300,\"final\":10}");
      assertThat(uids(root, 1, 0, PEOPLE)).isEqualTo(inMemory);
      assertThat(uids(root, 150, 3, 6)).isEqualTo(middleInMemory);

      SearchResult byValue =
          root.search(
              request(new VirtualListViewRequestControl("Person050", 1, 1, null), "uid", "sn"));
      assertThat(byValue.getSearchEntries())
          .extracting(e -> e.getAttributeValue("sn"))
          .containsExactly("Person049", "Person050", "Person050");
      VirtualListViewResponseControl response = VirtualListViewResponseControl.get(byValue);
      assertThat(response.getTargetPosition()).isEqualTo(101);
      assertThat(response.getContentCount()).isEqualTo(PEOPLE);

      // Add: sorts first.
      root.add(person(1000, "Aaron"));
      assertThat(uids(root, 1, 0, 1)).containsExactly("p1000", inMemory.get(0));
      // Modify the sort key: moves to the end.
      root.modify(
          "uid=p1000," + PEOPLE_DN, new Modification(ModificationType.REPLACE, "sn", "Zed"));
      assertThat(uids(root, PEOPLE + 1, 1, 0)).containsExactly(inMemory.get(PEOPLE - 1), "p1000");
      // Rename out of the indexed scope: gone from the list.
      root.modifyDN(
          new ModifyDNRequest("uid=p1000," + PEOPLE_DN, "uid=p1000", true, TestServer.BASE));
      assertThat(uids(root, PEOPLE, 0, 5)).containsExactly(inMemory.get(PEOPLE - 1));
      // Delete: the next one moves up.
      root.delete("uid=" + inMemory.get(0) + "," + PEOPLE_DN);
      assertThat(uids(root, 1, 0, 0)).containsExactly(inMemory.get(1));
      assertThat(index().size()).isEqualTo(PEOPLE - 1);
      EntryContainer container = server.server().backends().containerFor(new DN(TestServer.BASE));
      assertThat(container.verifyVlvIndex(index())).isEmpty();
    }
  }

  private static String awaitEnd(LDAPConnection root, String task) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      String state = root.getEntry(task).getAttributeValue("ds-task-state");
      if (!"RUNNING".equals(state) && !"WAITING_ON_START_TIME".equals(state)) {
        return state;
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
    throw new AssertionError("the task " + task + " did not end within 120 s");
  }
}
