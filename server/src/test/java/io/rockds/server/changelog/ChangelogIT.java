package io.rockds.server.changelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.EntryChangeNotificationControl;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import com.unboundid.ldap.sdk.controls.PersistentSearchRequestControl;
import io.rockds.server.TestClock;
import io.rockds.server.TestServer;
import io.rockds.server.psearch.Notifications;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cn=changelog on a single server, over LDAP: one numbered entry per applied change with its LDIF,
 * the root DSE's range, change-number range searches, access (privilege, passwords), persistent
 * search following it, durability across a restart and purging by age with an injected clock.
 */
class ChangelogIT {
  private static final String BASE = TestServer.BASE;
  private static final String PEOPLE = "ou=People," + BASE;
  private static final String READER = "uid=reader," + PEOPLE;
  private static final String PLAIN = "uid=plain," + PEOPLE;
  private static final String PASSWORD = "user-password-1";
  private static final long WAIT_SECONDS = 30;

  @TempDir Path dir;
  private final TestClock clock = new TestClock();
  private TestServer server;

  @BeforeEach
  void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(person("reader", "ds-privilege-name: changelog-read"));
    entries.add(person("plain"));
    entries.add(person("ordinary"));
    server = TestServer.start(dir, entries, clock);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void each_applied_change_is_an_entry_numbered_in_order() throws Exception {
    long before = lastChangeNumber();
    try (LDAPConnection root = server.rootConnection()) {
      root.add(person("ann", "userPassword: clear-text-secret"));
      root.modify(
          "uid=ann," + PEOPLE, new Modification(ModificationType.REPLACE, "description", "one"));
      root.modifyDN("uid=ann," + PEOPLE, "uid=anna", true);
      root.delete("uid=anna," + PEOPLE);
      assertThatThrownBy(() -> root.delete("uid=nobody," + PEOPLE))
          .isInstanceOf(LDAPException.class);

      List<SearchResultEntry> changes = changesFrom(root, before + 1);
      assertThat(changes).hasSize(4);
      assertThat(changes)
          .extracting(e -> e.getAttributeValueAsLong("changeNumber"))
          .containsExactly(before + 1, before + 2, before + 3, before + 4);
      assertThat(changes)
          .extracting(e -> e.getAttributeValue("changeType"))
          .containsExactly("add", "modify", "modrdn", "delete");
      SearchResultEntry add = changes.get(0);
      assertThat(add.getDN()).isEqualTo("changeNumber=" + (before + 1) + ",cn=changelog");
      assertThat(add.getObjectClassValues()).contains("changeLogEntry");
      assertThat(add.getAttributeValue("targetDN")).isEqualTo("uid=ann," + PEOPLE);
      assertThat(add.getAttributeValue("changes"))
          .contains("uid: ann\n")
          .contains("entryUUID: ")
          .contains("userPassword: {")
          .doesNotContain("clear-text-secret");
      assertThat(add.getAttributeValue("changeInitiatorsName")).isEqualTo(TestServer.ROOT_DN);
      assertThat(add.getAttributeValue("changeTime")).endsWith("Z");
      String uuid = add.getAttributeValue("targetEntryUUID");
      assertThat(uuid).isNotBlank();
      assertThat(changes.get(1).getAttributeValue("changes"))
          .isEqualTo("replace: description\ndescription: one\n-\n");
      assertThat(changes.get(1).getAttributeValue("targetEntryUUID")).isEqualTo(uuid);
      SearchResultEntry rename = changes.get(2);
      assertThat(rename.getAttributeValue("newRDN")).isEqualTo("uid=anna");
      assertThat(rename.getAttributeValue("deleteOldRDN")).isEqualTo("TRUE");
      assertThat(rename.hasAttribute("newSuperior")).isFalse();
      assertThat(changes.get(3).getAttributeValue("targetDN")).isEqualTo("uid=anna," + PEOPLE);
      assertThat(changes.get(3).getAttributeValue("targetEntryUUID")).isEqualTo(uuid);
    }
    assertThat(lastChangeNumber()).isEqualTo(before + 4);
    try (LDAPConnection anonymous = server.anonymousConnection()) {
      Entry rootDse = anonymous.getEntry("", "+", "*");
      assertThat(rootDse.getAttributeValue("changelog")).isEqualTo("cn=changelog");
      assertThat(rootDse.getAttributeValueAsLong("firstChangeNumber")).isBetween(1L, before + 1);
    }
  }

  @Test
  void range_and_base_searches_return_only_the_changes_asked_for() throws Exception {
    long first = lastChangeNumber() + 1;
    try (LDAPConnection root = server.rootConnection()) {
      for (int i = 0; i < 6; i++) {
        root.modify(PLAIN, new Modification(ModificationType.REPLACE, "description", "d" + i));
      }
      SearchResult between =
          root.search(
              "cn=changelog",
              SearchScope.ONE,
              "(&(changeNumber>=" + (first + 2) + ")(changeNumber<=" + (first + 3) + "))");
      assertThat(between.getSearchEntries())
          .extracting(e -> e.getAttributeValueAsLong("changeNumber"))
          .containsExactly(first + 2, first + 3);
      SearchResult either =
          root.search(
              "cn=changelog",
              SearchScope.SUB,
              "(|(changeNumber=" + first + ")(changeNumber=" + (first + 5) + "))");
      assertThat(either.getSearchEntries())
          .extracting(e -> e.getAttributeValueAsLong("changeNumber"))
          .containsExactly(first, first + 5);
      SearchResult one =
          root.search(
              "changeNumber=" + (first + 1) + ",cn=changelog", SearchScope.BASE, "(objectClass=*)");
      assertThat(one.getSearchEntries().get(0).getAttributeValue("changes"))
          .contains("description: d1");
      SearchResult limited =
          root.search(
              new SearchRequest("cn=changelog", SearchScope.ONE, "(changeNumber>=" + first + ")"));
      assertThat(limited.getEntryCount()).isEqualTo(6);
      assertThatThrownBy(
              () ->
                  root.search(
                      "changeNumber=" + (first + 100) + ",cn=changelog",
                      SearchScope.BASE,
                      "(objectClass=*)"))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.NO_SUCH_OBJECT);
                assertThat(e.getMatchedDN()).isEqualTo("cn=changelog");
              });
      assertThat(root.getEntry("cn=changelog").getAttributeValue("cn")).isEqualTo("changelog");
    }
  }

  @Test
  void only_holders_of_changelog_read_may_read_it_and_hashes_only_with_bypass_acl()
      throws Exception {
    long first = lastChangeNumber() + 1;
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(
          PLAIN, new Modification(ModificationType.REPLACE, "userPassword", "new-secret-value"));
      String changes = changesFrom(root, first).get(0).getAttributeValue("changes");
      assertThat(changes).startsWith("replace: userPassword\nuserPassword: {");
      assertThat(changes).doesNotContain("new-secret-value");
    }
    try (LDAPConnection reader =
        new LDAPConnection("127.0.0.1", server.ldapPort(), READER, PASSWORD)) {
      // The reader lacks bypass-acl: the change is there, its hash is not.
      String changes = changesFrom(reader, first).get(0).getAttributeValue("changes");
      assertThat(changes).startsWith("replace: userPassword\n-\n").doesNotContain("{");
    }
    try (LDAPConnection ordinary =
            new LDAPConnection("127.0.0.1", server.ldapPort(), "uid=ordinary," + PEOPLE, PASSWORD);
        LDAPConnection anonymous = server.anonymousConnection()) {
      for (LDAPConnection refused : List.of(ordinary, anonymous)) {
        assertThatThrownBy(() -> refused.search("cn=changelog", SearchScope.SUB, "(objectClass=*)"))
            .isInstanceOfSatisfying(
                LDAPException.class,
                e ->
                    assertThat(e.getResultCode()).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
      }
    }
  }

  @Test
  void a_persistent_search_follows_the_changelog_live() throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection watcher = server.rootConnection();
        LDAPConnection people = server.rootConnection()) {
      Notifications changelog = new Notifications();
      SearchRequest request =
          new SearchRequest(changelog, "cn=changelog", SearchScope.ONE, "(changeType=modify)");
      request.addControl(
          new PersistentSearchRequestControl(
              EnumSet.allOf(PersistentSearchChangeType.class), true, true, true));
      AsyncRequestID id = watcher.asyncSearch(request);
      Notifications entries = new Notifications();
      SearchRequest onPeople = new SearchRequest(entries, PEOPLE, SearchScope.SUB, "(uid=plain)");
      onPeople.addControl(
          new PersistentSearchRequestControl(
              EnumSet.allOf(PersistentSearchChangeType.class), true, true, true));
      AsyncRequestID peopleId = people.asyncSearch(onPeople);
      awaitOpenSearches(2);

      root.add(person("skipped")); // an add: the filter leaves it out
      root.modify(PLAIN, new Modification(ModificationType.REPLACE, "description", "live"));

      SearchResultEntry change = changelog.next();
      long number = change.getAttributeValueAsLong("changeNumber");
      assertThat(number).isEqualTo(lastChangeNumber());
      assertThat(change.getAttributeValue("targetDN")).isEqualTo(PLAIN);
      assertThat(change.getAttributeValue("changes")).contains("description: live");
      assertThat(EntryChangeNotificationControl.get(change).getChangeType())
          .isEqualTo(PersistentSearchChangeType.ADD);
      // The entry's own notification carries its change number.
      SearchResultEntry modified = entries.next();
      assertThat(EntryChangeNotificationControl.get(modified).getChangeNumber()).isEqualTo(number);
      watcher.abandon(id);
      people.abandon(peopleId);
    }
  }

  @Test
  void the_changelog_survives_a_restart_and_numbering_goes_on() throws Exception {
    long before;
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(PLAIN, new Modification(ModificationType.REPLACE, "description", "kept"));
      before = lastChangeNumber();
    }
    server.restart();
    assertThat(lastChangeNumber()).isEqualTo(before);
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(PLAIN, new Modification(ModificationType.REPLACE, "description", "after"));
      List<SearchResultEntry> changes = changesFrom(root, before);
      assertThat(changes)
          .extracting(e -> e.getAttributeValueAsLong("changeNumber"))
          .containsExactly(before, before + 1);
      assertThat(changes.get(0).getAttributeValue("changes")).contains("description: kept");
    }
  }

  @Test
  void changes_older_than_the_purge_delay_are_purged_the_newest_kept() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(PLAIN, new Modification(ModificationType.REPLACE, "description", "old"));
      long old = lastChangeNumber();
      root.modify(
          "cn=config",
          new Modification(ModificationType.REPLACE, "ds-cfg-changelog-purge-delay", "1 w"));
      clock.advance(Duration.ofDays(4));
      root.modify(PLAIN, new Modification(ModificationType.REPLACE, "description", "younger"));
      assertThat(firstChangeNumber()).isLessThanOrEqualTo(old);

      root.modify(
          "cn=config",
          new Modification(ModificationType.REPLACE, "ds-cfg-changelog-purge-delay", "3 d"));
      clock.advance(Duration.ofMinutes(2)); // past the purge interval
      root.modify(PLAIN, new Modification(ModificationType.REPLACE, "description", "newest"));
      long newest = lastChangeNumber();
      // The changes made four days ago are gone; the one just made stays.
      assertThat(firstChangeNumber()).isEqualTo(newest);
      assertThat(changesFrom(root, 0))
          .extracting(e -> e.getAttributeValueAsLong("changeNumber"))
          .containsExactly(newest);
      assertThatThrownBy(
              () ->
                  root.search(
                      "changeNumber=" + old + ",cn=changelog", SearchScope.BASE, "(objectClass=*)"))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.NO_SUCH_OBJECT));
    }
  }

  // ---------------------------------------------------------------- helpers

  private static List<SearchResultEntry> changesFrom(LDAPConnection connection, long first)
      throws LDAPException {
    return connection
        .search("cn=changelog", SearchScope.ONE, "(changeNumber>=" + first + ")")
        .getSearchEntries();
  }

  private long lastChangeNumber() throws LDAPException {
    try (LDAPConnection c = server.anonymousConnection()) {
      return c.getEntry("", "lastChangeNumber").getAttributeValueAsLong("lastChangeNumber");
    }
  }

  private long firstChangeNumber() throws LDAPException {
    try (LDAPConnection c = server.anonymousConnection()) {
      return c.getEntry("", "firstChangeNumber").getAttributeValueAsLong("firstChangeNumber");
    }
  }

  private void awaitOpenSearches(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (server.server().metrics().persistentSearches() < count) {
      assertThat(System.nanoTime()).as("persistent searches registered").isLessThan(deadline);
      Thread.sleep(2); // polling interval of a condition with a deadline
    }
  }

  private static Entry person(String uid, String... extra) throws Exception {
    Entry entry =
        new Entry(
            "dn: uid=" + uid + "," + PEOPLE,
            "objectClass: inetOrgPerson",
            "uid: " + uid,
            "cn: " + uid,
            "sn: " + uid);
    if (!List.of(extra).stream().anyMatch(a -> a.startsWith("userPassword:"))) {
      entry.addAttribute("userPassword", PASSWORD);
    }
    for (String line : extra) {
      int colon = line.indexOf(": ");
      entry.addAttribute(line.substring(0, colon), line.substring(colon + 2));
    }
    return entry;
  }
}
