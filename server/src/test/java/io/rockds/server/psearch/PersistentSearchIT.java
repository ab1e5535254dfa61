package io.rockds.server.psearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.EntryChangeNotificationControl;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import com.unboundid.ldap.sdk.controls.PersistentSearchRequestControl;
import io.rockds.server.TestServer;
import io.rockds.testsupport.RequiredTool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Persistent search (draft-ietf-ldapext-psearch-03) over real sockets: every change type with its
 * Entry Change Notification, changesOnly, returnECs, scopes, filters, access control, the limits, a
 * client that stops reading, and the release of the server's state however the client leaves.
 */
class PersistentSearchIT {
  private static final String BASE = TestServer.BASE;
  private static final String PEOPLE = "ou=People," + BASE;
  private static final String ALICE = "uid=alice," + PEOPLE;
  private static final String ALICE_PASSWORD = "alice-password-1";
  private static final String HIDDEN = "uid=hidden," + PEOPLE;
  private static final long WAIT_SECONDS = 30;
  private static final Set<PersistentSearchChangeType> ALL =
      EnumSet.allOf(PersistentSearchChangeType.class);

  @TempDir static Path dir;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new java.util.ArrayList<>(TestServer.baseEntries());
    entries.add(person("alice", "userPassword: " + ALICE_PASSWORD));
    entries.add(
        person(
            "hidden",
            "aci: (targetattr=\"*\")(version 3.0; acl \"hidden from alice\"; deny (all)"
                + " userdn=\"ldap:///"
                + ALICE
                + "\";)"));
    server = TestServer.start(dir, entries);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** Each test leaves no persistent search behind: the server's state is freed. */
  @AfterEach
  void nothingLeftOpen() throws Exception {
    await(() -> openSearches() == 0, "every persistent search released");
  }

  // ---------------------------------------------------------------- change types and controls

  @Test
  void each_change_type_is_returned_with_its_entry_change_notification() throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection watcher = server.rootConnection()) {
      Notifications n = open(watcher, PEOPLE, SearchScope.SUB, "(objectClass=*)", ALL, true, true);
      root.add(person("ann"));
      root.modify(
          "uid=ann," + PEOPLE, new Modification(ModificationType.REPLACE, "description", "one"));
      root.modifyDN("uid=ann," + PEOPLE, "uid=anna", true);
      root.delete("uid=anna," + PEOPLE);

      SearchResultEntry added = n.next();
      assertThat(added.getDN()).isEqualTo("uid=ann," + PEOPLE);
      assertThat(ecn(added).getChangeType()).isEqualTo(PersistentSearchChangeType.ADD);
      assertThat(ecn(added).getPreviousDN()).isNull();
      SearchResultEntry modified = n.next();
      assertThat(ecn(modified).getChangeType()).isEqualTo(PersistentSearchChangeType.MODIFY);
      assertThat(modified.getAttributeValue("description")).isEqualTo("one");
      SearchResultEntry renamed = n.next();
      assertThat(renamed.getDN()).isEqualTo("uid=anna," + PEOPLE);
      assertThat(ecn(renamed).getChangeType()).isEqualTo(PersistentSearchChangeType.MODIFY_DN);
      assertThat(ecn(renamed).getPreviousDN()).isEqualTo("uid=ann," + PEOPLE);
      SearchResultEntry deleted = n.next();
      assertThat(deleted.getDN()).isEqualTo("uid=anna," + PEOPLE);
      assertThat(ecn(deleted).getChangeType()).isEqualTo(PersistentSearchChangeType.DELETE);
      // Each change carries its number in cn=changelog.
      assertThat(ecn(deleted).getChangeNumber()).isEqualTo(ecn(added).getChangeNumber() + 3);
      watcher.abandon(n.id);
    }
  }

  @Test
  void changes_only_false_returns_the_initial_entries_first_without_notification_controls()
      throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection watcher = server.rootConnection()) {
      Notifications n = open(watcher, PEOPLE, SearchScope.ONE, "(uid=*)", ALL, false, true);
      SearchResultEntry first = n.next();
      SearchResultEntry second = n.next();
      assertThat(List.of(first.getDN(), second.getDN())).containsExactlyInAnyOrder(ALICE, HIDDEN);
      assertThat(first.getControl(EntryChangeNotificationControl.ENTRY_CHANGE_NOTIFICATION_OID))
          .isNull();
      assertThat(n.done).isNotDone();
      root.add(person("bea"));
      SearchResultEntry added = n.next();
      assertThat(added.getDN()).isEqualTo("uid=bea," + PEOPLE);
      assertThat(ecn(added).getChangeType()).isEqualTo(PersistentSearchChangeType.ADD);
      watcher.abandon(n.id);
      root.delete("uid=bea," + PEOPLE);
    }
  }

  @Test
  void return_ecs_false_sends_plain_entries_and_change_types_select_the_changes() throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection watcher = server.rootConnection()) {
      Notifications n =
          open(
              watcher,
              PEOPLE,
              SearchScope.SUB,
              "(objectClass=*)",
              EnumSet.of(PersistentSearchChangeType.DELETE),
              true,
              false);
      root.add(person("cid"));
      root.modify(
          "uid=cid," + PEOPLE, new Modification(ModificationType.REPLACE, "description", "x"));
      root.delete("uid=cid," + PEOPLE);
      SearchResultEntry deleted = n.next();
      assertThat(deleted.getDN()).isEqualTo("uid=cid," + PEOPLE);
      assertThat(deleted.getControls()).isEmpty();
      watcher.abandon(n.id);
    }
  }

  // ---------------------------------------------------------------- scope, filter, access

  @Test
  void base_and_one_level_scopes_only_notify_their_entries() throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection watcher = server.rootConnection()) {
      root.add(new Entry("dn: ou=Unit," + PEOPLE, "objectClass: organizationalUnit", "ou: Unit"));
      Notifications base =
          open(watcher, ALICE, SearchScope.BASE, "(objectClass=*)", ALL, true, true);
      Notifications oneLevel =
          open(watcher, PEOPLE, SearchScope.ONE, "(objectClass=*)", ALL, true, true);
      root.add(person("deep")); // a child of ou=People
      root.add(
          new Entry(
              "dn: uid=grandchild,ou=Unit," + PEOPLE,
              "objectClass: inetOrgPerson",
              "uid: grandchild",
              "cn: grandchild",
              "sn: grandchild"));
      describe(root, ALICE, "base");
      // Base scope: alice's change only, not the two adds below ou=People.
      assertThat(base.next().getDN()).isEqualTo(ALICE);
      // One level: the child and alice, never the grandchild.
      assertThat(oneLevel.next().getDN()).isEqualTo("uid=deep," + PEOPLE);
      assertThat(oneLevel.next().getDN()).isEqualTo(ALICE);
      describe(root, HIDDEN, "last");
      assertThat(oneLevel.next().getDN()).isEqualTo(HIDDEN);
      watcher.abandon(base.id);
      watcher.abandon(oneLevel.id);
      root.delete("uid=grandchild,ou=Unit," + PEOPLE);
      root.delete("ou=Unit," + PEOPLE);
      root.delete("uid=deep," + PEOPLE);
    }
  }

  @Test
  void a_change_whose_entry_no_longer_matches_the_filter_is_not_returned() throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection watcher = server.rootConnection()) {
      describe(root, ALICE, "watched");
      Notifications n =
          open(watcher, PEOPLE, SearchScope.SUB, "(description=watched)", ALL, true, true);
      describe(root, ALICE, "other"); // matched before, not after: draft section 5, no entry
      describe(root, HIDDEN, "watched");
      SearchResultEntry next = n.next();
      assertThat(next.getDN()).isEqualTo(HIDDEN);
      assertThat(ecn(next).getChangeType()).isEqualTo(PersistentSearchChangeType.MODIFY);
      watcher.abandon(n.id);
    }
  }

  @Test
  void an_entry_the_requester_may_not_read_is_not_sent_and_attributes_are_filtered()
      throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection alice =
            new LDAPConnection("127.0.0.1", server.ldapPort(), ALICE, ALICE_PASSWORD)) {
      Notifications n =
          open(alice, PEOPLE, SearchScope.SUB, "(objectClass=*)", ALL, true, true, "*", "cn");
      describe(root, HIDDEN, "secret");
      root.modify(
          ALICE, new Modification(ModificationType.REPLACE, "userPassword", ALICE_PASSWORD));
      SearchResultEntry self = n.next();
      assertThat(self.getDN()).isEqualTo(ALICE);
      assertThat(self.hasAttribute("cn")).isTrue();
      assertThat(self.hasAttribute("userPassword")).isFalse();
      alice.abandon(n.id);
    }
  }

  // ---------------------------------------------------------------- limits and release

  @Test
  void limits_per_connection_and_per_server_refuse_with_admin_limit_exceeded() throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection first = server.rootConnection();
        LDAPConnection second = server.rootConnection()) {
      setConfig(root, "ds-cfg-max-psearches-per-connection", "2");
      setConfig(root, "ds-cfg-max-psearches", "3");
      try {
        Notifications a = open(first, PEOPLE, SearchScope.SUB, "(uid=*)", ALL, true, true);
        Notifications b = open(first, PEOPLE, SearchScope.SUB, "(uid=*)", ALL, true, true);
        assertRefused(first, "max-psearches-per-connection");
        Notifications c = open(second, PEOPLE, SearchScope.SUB, "(uid=*)", ALL, true, true);
        assertRefused(second, "max-psearches");
        first.abandon(a.id);
        await(() -> openSearches() == 2, "the abandoned search released");
        Notifications d = open(second, PEOPLE, SearchScope.SUB, "(uid=*)", ALL, true, true);
        first.abandon(b.id);
        second.abandon(c.id);
        second.abandon(d.id);
      } finally {
        setConfig(root, "ds-cfg-max-psearches-per-connection", "8");
        setConfig(root, "ds-cfg-max-psearches", "1000");
      }
    }
  }

  @Test
  void anonymous_clients_have_their_own_limit() throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection anonymous = server.anonymousConnection();
        LDAPConnection other = server.anonymousConnection();
        LDAPConnection bound = server.rootConnection()) {
      setConfig(root, "ds-cfg-max-anonymous-psearches", "1");
      try {
        Notifications a = open(anonymous, PEOPLE, SearchScope.SUB, "(uid=*)", ALL, true, true);
        assertRefused(other, "max-anonymous-psearches");
        Notifications b = open(bound, PEOPLE, SearchScope.SUB, "(uid=*)", ALL, true, true);
        describe(root, ALICE, "anonymous");
        assertThat(b.next().getDN()).isEqualTo(ALICE);
        anonymous.abandon(a.id);
        bound.abandon(b.id);
      } finally {
        setConfig(root, "ds-cfg-max-anonymous-psearches", "16");
      }
    }
  }

  @Test
  void abandon_unbind_and_disconnect_release_the_search_in_monitor_and_metrics() throws Exception {
    LDAPConnection client = server.rootConnection();
    Notifications n = open(client, PEOPLE, SearchScope.SUB, "(uid=*)", ALL, true, true);
    assertThat(monitored()).isEqualTo("1");
    assertThat(server.server().metrics().scrape()).contains("ldap_persistent_searches_active 1.0");
    client.abandon(n.id);
    await(() -> openSearches() == 0, "released by abandon");
    assertThat(monitored()).isEqualTo("0");
    assertThat(server.server().metrics().scrape()).contains("ldap_persistent_searches_active 0.0");

    open(client, PEOPLE, SearchScope.SUB, "(uid=*)", ALL, true, true);
    client.close(); // the SDK unbinds, then closes
    await(() -> openSearches() == 0, "released by unbind");

    try (Socket raw = rawClient()) {
      openRaw(raw, 2);
      await(() -> openSearches() == 1, "the raw client's search open");
    } // closed without unbind
    await(() -> openSearches() == 0, "released by disconnect");
  }

  @Test
  void a_client_that_stops_reading_loses_its_search_and_never_stalls_writers() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      setConfig(root, "ds-cfg-psearch-queue-size", "5");
      long overflowedBefore = server.server().metrics().persistentSearchesOverflowed();
      try (Socket stalled = rawClient()) {
        openRaw(stalled, 2);
        await(() -> openSearches() == 1, "the stalled client's search open");
        String big = "x".repeat(64 * 1024);
        int writes = 0;
        // Each notification carries 64 KiB: the socket buffers, Netty's high water mark and the
        // queue of 5 fill within a bounded number of modifies, each of which completes.
        while (openSearches() > 0 && writes < 2000) {
          describe(root, ALICE, big + writes++);
        }
        assertThat(openSearches()).as("the search ended after %d writes", writes).isZero();
        assertThat(server.server().metrics().persistentSearchesOverflowed())
            .isEqualTo(overflowedBefore + 1);
        assertThat(root.getEntry(ALICE, "description").getAttributeValue("description"))
            .isEqualTo(big + (writes - 1));
        // Reading now, the client finds the end of its search: adminLimitExceeded.
        assertThat(resultOf(stalled, 2)).isEqualTo(ResultCode.ADMIN_LIMIT_EXCEEDED.intValue());
      } finally {
        setConfig(root, "ds-cfg-psearch-queue-size", "1000");
      }
    }
  }

  @Test
  void the_root_dse_advertises_the_control() throws Exception {
    try (LDAPConnection anonymous = server.anonymousConnection()) {
      assertThat(anonymous.getRootDSE().getSupportedControlOIDs())
          .contains(PersistentSearchRequestControl.PERSISTENT_SEARCH_REQUEST_OID);
    }
  }

  @Test
  void ldapsearch_receives_notifications() throws Exception {
    RequiredTool.assumeInstalled(Path.of("/usr/bin/ldapsearch"), "ldap-utils");
    Process ldapsearch =
        new ProcessBuilder(
                // Line-buffered: ldapsearch writes each notification as it comes, not at exit.
                "stdbuf",
                "-oL",
                "ldapsearch",
                "-H",
                "ldap://127.0.0.1:" + server.ldapPort(),
                "-x",
                "-D",
                TestServer.ROOT_DN,
                "-w",
                TestServer.ROOT_PASSWORD,
                "-b",
                PEOPLE,
                "-E",
                "!ps=15/1/1", // changeTypes 15: all four
                "(uid=alice)",
                "description")
            .redirectErrorStream(true)
            .start();
    try (LDAPConnection root = server.rootConnection()) {
      await(() -> openSearches() == 1, "ldapsearch's search open");
      describe(root, ALICE, "seen by ldapsearch");
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(ldapsearch.getInputStream(), StandardCharsets.UTF_8));
      CompletableFuture<String> seen =
          CompletableFuture.supplyAsync(
              () -> {
                StringBuilder text = new StringBuilder();
                try {
                  for (String line; (line = out.readLine()) != null; ) {
                    text.append(line).append('\n');
                    if (line.startsWith("description: seen by ldapsearch")) {
                      return text.toString();
                    }
                  }
                } catch (java.io.IOException e) {
                  text.append(e);
                }
                return text.toString();
              });
      String text = seen.get(WAIT_SECONDS, TimeUnit.SECONDS);
      assertThat(text).contains("dn: " + ALICE).contains("description: seen by ldapsearch");
    } finally {
      ldapsearch.destroy();
      ldapsearch.waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  // ---------------------------------------------------------------- helpers

  /** Opens a persistent search and returns once the server has registered it. */
  private static Notifications open(
      LDAPConnection connection,
      String base,
      SearchScope scope,
      String filter,
      Set<PersistentSearchChangeType> types,
      boolean changesOnly,
      boolean returnEcs,
      String... attributes)
      throws Exception {
    int before = openSearches();
    Notifications n = new Notifications();
    SearchRequest request = new SearchRequest(n, base, scope, filter, attributes);
    request.addControl(new PersistentSearchRequestControl(types, changesOnly, returnEcs, true));
    n.id = connection.asyncSearch(request);
    await(
        () -> openSearches() == before + 1 || n.done.isDone(), "the persistent search registered");
    assertThat(n.done).as("the search is still open").isNotDone();
    return n;
  }

  private static void assertRefused(LDAPConnection connection, String limit) throws Exception {
    SearchRequest request = new SearchRequest(PEOPLE, SearchScope.SUB, "(uid=*)");
    request.addControl(new PersistentSearchRequestControl(ALL, true, true, true));
    assertThatThrownBy(() -> connection.search(request))
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> {
              assertThat(e.getResultCode()).isEqualTo(ResultCode.ADMIN_LIMIT_EXCEEDED);
              assertThat(e.getDiagnosticMessage()).contains(limit);
            });
  }

  private static EntryChangeNotificationControl ecn(SearchResultEntry entry) throws LDAPException {
    EntryChangeNotificationControl control = EntryChangeNotificationControl.get(entry);
    assertThat(control).as("an entry change notification on %s", entry.getDN()).isNotNull();
    return control;
  }

  private static Entry person(String uid, String... extra) throws Exception {
    Entry entry =
        new Entry(
            "dn: uid=" + uid + "," + PEOPLE,
            "objectClass: inetOrgPerson",
            "uid: " + uid,
            "cn: " + uid,
            "sn: " + uid);
    for (String line : extra) {
      int colon = line.indexOf(": ");
      entry.addAttribute(line.substring(0, colon), line.substring(colon + 2));
    }
    return entry;
  }

  private static void describe(LDAPConnection root, String dn, String value) throws LDAPException {
    root.modify(dn, new Modification(ModificationType.REPLACE, "description", value));
  }

  private static void setConfig(LDAPConnection root, String attribute, String value)
      throws LDAPException {
    root.modify("cn=config", new Modification(ModificationType.REPLACE, attribute, value));
  }

  private static int openSearches() {
    return server.server().metrics().persistentSearches();
  }

  private static String monitored() throws LDAPException {
    try (LDAPConnection root = server.rootConnection()) {
      return root.getEntry("cn=monitor", "currentPersistentSearches")
          .getAttributeValue("currentPersistentSearches");
    }
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for: %s", what).isLessThan(deadline);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
    }
  }

  /** A client socket with a small receive buffer that reads only when told to. */
  private static Socket rawClient() throws Exception {
    Socket socket = new Socket();
    socket.setReceiveBufferSize(4096);
    socket.connect(new InetSocketAddress("127.0.0.1", server.ldapPort()));
    socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
    return socket;
  }

  /** Binds as root (message 1) and opens a changes-only persistent search as {@code messageId}. */
  private static void openRaw(Socket socket, int messageId) throws Exception {
    OutputStream out = socket.getOutputStream();
    out.write(
        new LDAPMessage(1, new BindRequestProtocolOp(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD))
            .encode()
            .encode());
    out.write(
        new LDAPMessage(
                messageId,
                new SearchRequestProtocolOp(
                    PEOPLE,
                    SearchScope.SUB,
                    DereferencePolicy.NEVER,
                    0,
                    0,
                    false,
                    Filter.create("(objectClass=*)"),
                    List.of()),
                List.of(new PersistentSearchRequestControl(ALL, true, true, true)))
            .encode()
            .encode());
    out.flush();
  }

  /** Reads the socket until the result of {@code messageId}; returns its result code. */
  private static int resultOf(Socket socket, int messageId) throws Exception {
    ASN1StreamReader reader = new ASN1StreamReader(socket.getInputStream());
    for (int read = 0; read < 100_000; read++) {
      LDAPMessage message = LDAPMessage.readFrom(reader, true);
      if (message.getMessageID() == messageId
          && message.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE) {
        return message.getSearchResultDoneProtocolOp().getResultCode();
      }
    }
    throw new AssertionError("no result for message " + messageId);
  }
}
