package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import com.unboundid.ldap.sdk.controls.SortKey;
import com.unboundid.ldap.sdk.controls.VirtualListViewRequestControl;
import com.unboundid.ldap.sdk.controls.VirtualListViewResponseControl;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Virtual list view over a real server and the UnboundID SDK: windows by offset and by assertion
 * value, before/after counts, the client's content count estimate, targets past the end, and the
 * errors the draft names. The list: 40 people {@code sn=Person00..Person39} below ou=People.
 */
class VirtualListViewIT {
  static final String PEOPLE_DN = "ou=People," + TestServer.BASE;
  static final int PEOPLE = 40;

  /** sn has no ORDERING rule in RFC 4519: the sort names one. */
  static final String ORDERING = "caseIgnoreOrderingMatch";

  @TempDir static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    // Added in an order unrelated to the sort order, so that ID order cannot pass for it.
    for (int n = 0; n < PEOPLE; n++) {
      int i = (n * 17) % PEOPLE;
      entries.add(person(i));
    }
    server = TestServer.start(dir, entries);
  }

  static Entry person(int i) {
    String sn = String.format("Person%02d", i);
    return new Entry(
        "uid=p" + i + "," + PEOPLE_DN,
        new Attribute("objectClass", "top", "person", "inetOrgPerson"),
        new Attribute("uid", "p" + i),
        new Attribute("cn", "P " + i),
        new Attribute("sn", sn));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /**
   * A VLV search by offset under ou=People, sorted by sn; returns the sn values and the control.
   */
  static Page byOffset(LDAPConnection c, int offset, int before, int after, int contentCount)
      throws LDAPException {
    return page(
        c, new VirtualListViewRequestControl(offset, before, after, contentCount, null, true));
  }

  static Page byValue(LDAPConnection c, String value, int before, int after) throws LDAPException {
    return page(c, new VirtualListViewRequestControl(value, before, after, null, true));
  }

  record Page(List<String> sns, VirtualListViewResponseControl response) {}

  static Page page(LDAPConnection c, Control vlv) throws LDAPException {
    SearchRequest request =
        new SearchRequest(PEOPLE_DN, SearchScope.ONE, "(objectClass=person)", "sn");
    request.addControl(new ServerSideSortRequestControl(true, new SortKey("sn", ORDERING, false)));
    request.addControl(vlv);
    SearchResult result = c.search(request);
    List<String> sns = new ArrayList<>();
    for (SearchResultEntry e : result.getSearchEntries()) {
      sns.add(e.getAttributeValue("sn"));
    }
    return new Page(sns, VirtualListViewResponseControl.get(result));
  }

  static List<String> names(int first, int last) {
    List<String> names = new ArrayList<>();
    for (int i = first; i <= last; i++) {
      names.add(String.format("Person%02d", i));
    }
    return names;
  }

  @Test
  void offsetWithBeforeAndAfterCounts() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      Page page = byOffset(root, 10, 2, 3, 0);
      assertThat(page.sns()).isEqualTo(names(7, 12));
      assertThat(page.response().getTargetPosition()).isEqualTo(10);
      assertThat(page.response().getContentCount()).isEqualTo(PEOPLE);
      assertThat(page.response().getResultCode()).isEqualTo(ResultCode.SUCCESS);
      // The first page: fewer before entries than asked for exist.
      assertThat(byOffset(root, 1, 5, 2, 0).sns()).isEqualTo(names(0, 2));
      // Offset 0 is taken as 1 (OpenDJ).
      assertThat(byOffset(root, 0, 0, 1, 0).sns()).isEqualTo(names(0, 1));
      assertThat(byOffset(root, PEOPLE, 1, 5, 0).sns()).isEqualTo(names(PEOPLE - 2, PEOPLE - 1));
    }
  }

  @Test
  void offsetPastTheEndReturnsTheLastEntriesBeforeIt() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      Page page = byOffset(root, 1000, 2, 5, 0);
      assertThat(page.sns()).isEqualTo(names(PEOPLE - 2, PEOPLE - 1));
      assertThat(page.response().getTargetPosition()).isEqualTo(PEOPLE + 1);
      assertThat(page.response().getContentCount()).isEqualTo(PEOPLE);
    }
  }

  @Test
  void contentCountEstimateScalesTheOffset() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      // The client believes the list holds 80 entries: offset 40 is the middle, entry 20.
      Page middle = byOffset(root, 40, 0, 0, 80);
      assertThat(middle.sns()).isEqualTo(names(19, 19));
      assertThat(middle.response().getTargetPosition()).isEqualTo(20);
      // offset == contentCount is the last entry, whatever the real size.
      assertThat(byOffset(root, 80, 0, 0, 80).sns()).isEqualTo(names(PEOPLE - 1, PEOPLE - 1));
    }
  }

  @Test
  void assertionValuePositionsOnTheFirstEntryAtOrAfterIt() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      Page page = byValue(root, "person15", 1, 2);
      assertThat(page.sns()).isEqualTo(names(14, 17));
      assertThat(page.response().getTargetPosition()).isEqualTo(16);
      // Between two values: the next one.
      assertThat(byValue(root, "Person155", 0, 0).sns()).isEqualTo(names(16, 16));
      // After every value: one past the end, only the before entries.
      Page past = byValue(root, "Zzz", 2, 2);
      assertThat(past.sns()).isEqualTo(names(PEOPLE - 2, PEOPLE - 1));
      assertThat(past.response().getTargetPosition()).isEqualTo(PEOPLE + 1);
    }
  }

  @Test
  void reverseSortAssertsInTheSortOrder() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      SearchRequest request =
          new SearchRequest(PEOPLE_DN, SearchScope.ONE, "(objectClass=person)", "sn");
      request.addControl(new ServerSideSortRequestControl(true, new SortKey("sn", ORDERING, true)));
      request.addControl(new VirtualListViewRequestControl("Person10", 0, 1, null, true));
      List<String> sns = new ArrayList<>();
      for (SearchResultEntry e : root.search(request).getSearchEntries()) {
        sns.add(e.getAttributeValue("sn"));
      }
      assertThat(sns).containsExactly("Person10", "Person09");
    }
  }

  @Test
  void withoutTheSortControlTheSearchFailsWithSortControlMissing() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      SearchRequest request =
          new SearchRequest(PEOPLE_DN, SearchScope.ONE, "(objectClass=person)", "sn");
      request.addControl(new VirtualListViewRequestControl(1, 0, 5, 0, null, true));
      assertThatThrownBy(() -> root.search(request))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.SORT_CONTROL_MISSING);
                assertThat(e.getSearchEntries()).isEmpty();
                VirtualListViewResponseControl response = responseOf(e.getResponseControls());
                assertThat(response.getResultCode()).isEqualTo(ResultCode.SORT_CONTROL_MISSING);
              });
    }
  }

  @Test
  void negativeCountsAreOffsetRangeErrors() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      assertThatThrownBy(() -> byOffset(root, -3, 0, 5, 0))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.OFFSET_RANGE_ERROR);
                assertThat(responseOf(e.getResponseControls()).getResultCode())
                    .isEqualTo(ResultCode.OFFSET_RANGE_ERROR);
              });
    }
  }

  @Test
  void pagingAndListViewDoNotMix() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      SearchRequest request =
          new SearchRequest(PEOPLE_DN, SearchScope.ONE, "(objectClass=person)", "sn");
      request.addControl(
          new ServerSideSortRequestControl(true, new SortKey("sn", ORDERING, false)));
      request.addControl(new VirtualListViewRequestControl(1, 0, 5, 0, null, true));
      request.addControl(new SimplePagedResultsControl(5));
      assertThatThrownBy(() -> root.search(request))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION));
    }
  }

  @Test
  void rootDseAdvertisesTheControl() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      assertThat(root.getRootDSE().getSupportedControlOIDs())
          .contains(VirtualListViewRequestControl.VIRTUAL_LIST_VIEW_REQUEST_OID);
    }
  }

  static VirtualListViewResponseControl responseOf(Control[] controls) {
    for (Control c : controls) {
      if (c instanceof VirtualListViewResponseControl response) {
        return response;
      }
      if (c.getOID().equals(VirtualListViewResponseControl.VIRTUAL_LIST_VIEW_RESPONSE_OID)) {
        try {
          return new VirtualListViewResponseControl(c.getOID(), c.isCritical(), c.getValue());
        } catch (LDAPException e) {
          throw new AssertionError(e);
        }
      }
    }
    throw new AssertionError("no VLV response control");
  }
}
