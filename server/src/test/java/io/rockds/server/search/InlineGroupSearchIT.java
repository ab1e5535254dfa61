package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResult;
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

/**
 * A quick search (base scope, or a few candidates) that would read a large group's members, stored
 * apart from the group's record, gives way to a worker before reading them, rather than stall every
 * connection of its event loop; one that needs none of them stays on the event loop and tests them
 * by point reads. Observed through the hand-offs counted in cn=Operations,cn=monitor, and the
 * answers, which are those of a worker.
 */
class InlineGroupSearchIT {
  private static final int MEMBERS = 5_000;
  private static final String PEOPLE = "ou=People," + TestServer.BASE;
  private static final String GROUP = "cn=big,ou=Groups," + TestServer.BASE;
  private static final String READER = "uid=reader," + PEOPLE;
  private static final String READER_PASSWORD = "Reader-Secret-1";

  @TempDir static Path dir;
  private static TestServer server;
  private static LDAPConnection root;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(
        new Entry(
            "dn: " + READER,
            "objectClass: inetOrgPerson",
            "uid: reader",
            "cn: Reader",
            "sn: Reader",
            "userPassword: " + READER_PASSWORD));
    entries.add(
        new Entry("dn: " + member(0), "objectClass: inetOrgPerson", "uid: m0", "cn: M 0", "sn: M"));
    List<String> members = new ArrayList<>(MEMBERS);
    for (int i = 0; i < MEMBERS; i++) {
      members.add(member(i));
    }
    Entry group = new Entry(GROUP);
    group.addAttribute("objectClass", "groupOfNames");
    group.addAttribute("cn", "big");
    group.addAttribute(new Attribute("member", members));
    group.addAttribute(
        "aci",
        "(targetattr=\"objectClass||cn||member\")(version 3.0; acl \"users read the group\";"
            + " allow (read,search,compare) userdn=\"ldap:///all\";)");
    entries.add(group);
    server = TestServer.start(dir, entries);
    root = server.rootConnection();
  }

  @AfterAll
  static void stop() {
    root.close();
    server.close();
  }

  @Test
  void returningTheMembersGivesWayToAWorkerWhichReturnsThemAll() throws Exception {
    long before = handOffs();
    SearchResultEntry asked = root.getEntry(GROUP, "member");
    SearchResultEntry all = root.getEntry(GROUP, "*");
    assertThat(handOffsSince(before)).isEqualTo(2);
    assertThat(asked.getAttributeValues("member")).hasSize(MEMBERS).contains(member(4_321));
    assertThat(all.getAttributeValues("member")).hasSize(MEMBERS);
    assertThat(all.getAttributeValue("cn")).isEqualTo("big");
  }

  @Test
  void aSearchNeedingNoMemberStaysOnTheEventLoopAndTestsMembersByPointReads() throws Exception {
    // Once read, the blocks are in memory: a first pass may find a table file that a background
    // flush just wrote and give way to a worker, as it should; the second must not.
    SearchResultEntry named = null;
    SearchResult isMember = null;
    SearchResult notMember = null;
    SearchResult hasMembers = null;
    long before = 0;
    for (int pass = 0; pass < 2; pass++) {
      before = handOffs();
      named = root.getEntry(GROUP, "cn");
      isMember =
          root.search(TestServer.BASE, SearchScope.SUB, "(member=" + member(4_321) + ")", "cn");
      notMember = root.search(GROUP, SearchScope.BASE, "(member=uid=nobody," + PEOPLE + ")", "cn");
      hasMembers = root.search(GROUP, SearchScope.BASE, "(member=*)", "1.1");
    }
    assertThat(handOffsSince(before)).isZero();
    assertThat(named.getAttributeValue("cn")).isEqualTo("big");
    assertThat(named.hasAttribute("member")).isFalse();
    assertThat(isMember.getSearchEntries()).extracting(Entry::getDN).containsExactly(GROUP);
    assertThat(isMember.getSearchEntries().get(0).hasAttribute("member")).isFalse();
    assertThat(notMember.getEntryCount()).isZero();
    assertThat(hasMembers.getEntryCount()).isEqualTo(1);
  }

  @Test
  void aFilterReadingEveryMemberGivesWayToAWorker() throws Exception {
    long before = handOffs();
    // An extensible match compares the assertion with each value in turn: all of them are read.
    SearchResult matched =
        root.search(
            GROUP,
            SearchScope.BASE,
            "(member:distinguishedNameMatch:=" + member(4_321) + ")",
            "cn");
    assertThat(handOffsSince(before)).isEqualTo(1);
    assertThat(matched.getSearchEntries()).extracting(Entry::getDN).containsExactly(GROUP);
  }

  @Test
  void accessControlThatMayReadTheMembersGivesWayToAWorker() throws Exception {
    try (LDAPConnection reader =
        new LDAPConnection("127.0.0.1", server.ldapPort(), READER, READER_PASSWORD)) {
      long before = handOffs();
      SearchResultEntry named = reader.getEntry(GROUP, "cn");
      assertThat(handOffsSince(before)).isEqualTo(1);
      assertThat(named.getAttributeValue("cn")).isEqualTo("big");
    }
  }

  @Test
  void theGroupsOfAnEntryAreComputedOnAWorker() throws Exception {
    long before = handOffs();
    SearchResultEntry plain = root.getEntry(member(0), "cn");
    long afterPlain = handOffsSince(before);
    before = handOffs();
    SearchResultEntry withGroups = root.getEntry(member(0), "memberOf");
    assertThat(afterPlain).isZero();
    assertThat(handOffsSince(before)).isEqualTo(1);
    assertThat(plain.getAttributeValue("cn")).isEqualTo("M 0");
    assertThat(withGroups.getAttributeValues("memberOf")).containsExactly(GROUP);
  }

  private static String member(int i) {
    return "uid=m" + i + "," + PEOPLE;
  }

  /**
   * Searches handed from an event loop to a worker so far. Reading cn=monitor is one of them (a
   * backend without indexes is walked on a worker), counted before the count is read.
   */
  private static long handOffs() throws Exception {
    return Long.parseLong(
        root.getEntry("cn=Operations,cn=monitor", "searchOpsHandedToWorker")
            .getAttributeValue("searchOpsHandedToWorker"));
  }

  /** The searches handed to a worker since {@code before} was read, this reading left out. */
  private static long handOffsSince(long before) throws Exception {
    return handOffs() - before - 1;
  }
}
