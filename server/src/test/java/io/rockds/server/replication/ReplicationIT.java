package io.rockds.server.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedResult;
import io.rockds.config.ConfigStore;
import io.rockds.config.InitialConfig;
import io.rockds.config.ReplicationConfig;
import io.rockds.layout.Instance;
import io.rockds.replication.GroupStatus;
import io.rockds.server.DirectoryServer;
import io.rockds.server.InstanceSetup;
import io.rockds.server.TestServer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real servers in one JVM, each with its own instance directory, replicating over loopback
 * ports: writes on any server reach every server, the server written to reads its own write at
 * once, a stopped leader is replaced, a stopped server catches up on restart, and a server without
 * a majority refuses writes with unavailable (52) while it keeps serving reads. The writes the
 * server makes itself travel the same way: Password Modify, the password policy state of binds, and
 * ACI changes take effect on every server.
 */
class ReplicationIT {
  private static final String BASE = TestServer.BASE;
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String READ_AFTER_WRITE = "2.25.28759973430515076363666229464208347148";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path directory;

  private final Instance[] instances = new Instance[3];
  private final DirectoryServer[] servers = new DirectoryServer[3];

  @AfterEach
  void stopAll() {
    for (DirectoryServer server : servers) {
      if (server != null) {
        server.close();
      }
    }
  }

  private void setUpGroup(Duration writeTimeout) throws Exception {
    List<String> addresses = new ArrayList<>();
    // Held open together, so that the three ports differ (a port closed is offered again).
    try (ServerSocket a = new ServerSocket(0);
        ServerSocket b = new ServerSocket(0);
        ServerSocket c = new ServerSocket(0)) {
      for (ServerSocket s : List.of(a, b, c)) {
        addresses.add("127.0.0.1:" + s.getLocalPort());
      }
    }
    for (int i = 0; i < 3; i++) {
      instances[i] = new Instance(directory.resolve("ds" + i));
      // A replica's setup creates no entries: data enters only through the log.
      InstanceSetup.create(
          instances[i],
          InstanceSetup.loopback(new DN(BASE), 0, 0).withHttpPort(0),
          TestServer.ROOT_PASSWORD,
          List.of());
      int port = Integer.parseInt(addresses.get(i).substring(addresses.get(i).indexOf(':') + 1));
      ConfigStore store = ConfigStore.load(instances[i].configFile());
      store.put(
          new ReplicationConfig(
                  "ds" + i, "127.0.0.1", port, addresses, writeTimeout, Duration.ofMillis(500))
              .toEntry());
      store.save();
    }
    for (int i = 0; i < 3; i++) {
      servers[i] = DirectoryServer.start(instances[i]);
    }
  }

  private LDAPConnection connect(int i) throws LDAPException {
    return new LDAPConnection(
        "127.0.0.1", servers[i].ldapPort(), TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
  }

  private Entry read(int i, String dn) throws LDAPException {
    try (LDAPConnection c = connect(i)) {
      return c.getEntry(dn, "*", "+");
    }
  }

  /** Polls until {@code dn} is on server {@code i}, within a deadline. */
  private Entry awaitEntry(int i, String dn) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      Entry entry = read(i, dn);
      if (entry != null) {
        return entry;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(dn + " did not reach server ds" + i + " within " + WAIT);
      }
      Thread.sleep(50); // polling interval of a condition with a deadline
    }
  }

  private int awaitLeader() throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      for (int i = 0; i < 3; i++) {
        if (servers[i] != null) {
          GroupStatus status = servers[i].replication().status();
          if (status != null && status.role().equals("leader")) {
            return i;
          }
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no leader within " + WAIT);
      }
      Thread.sleep(50); // polling interval of a condition with a deadline
    }
  }

  /** GET of /health or /metrics on server {@code i}: "status body". */
  private String http(int i, String path) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + servers[i].httpPort() + path))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + " " + response.body();
  }

  /** Polls server {@code i}'s /health until it starts with {@code expected}. */
  private String awaitHealth(int i, String expected) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      String health = http(i, "/health");
      if (health.startsWith(expected)) {
        return health;
      }
      assertThat(System.nanoTime()).as("ds" + i + " /health: " + health).isLessThan(deadline);
      Thread.sleep(50); // polling interval of a condition with a deadline
    }
  }

  /** A search of one entry that waits for every write the group committed before it. */
  private static SearchRequest readAfterWrite(String dn) throws LDAPException {
    SearchRequest request = new SearchRequest(dn, SearchScope.BASE, "(objectClass=*)");
    request.addControl(new Control(READ_AFTER_WRITE, true));
    return request;
  }

  private static Entry user(String uid) throws Exception {
    return new Entry(
        "dn: uid=" + uid + "," + BASE,
        "objectClass: inetOrgPerson",
        "uid: " + uid,
        "cn: " + uid,
        "sn: " + uid,
        "userPassword: secret-" + uid);
  }

  @Test
  void writesOnAnyServerReachAllAndTheGroupSurvivesItsLeader() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    try (LDAPConnection c = connect(0)) {
      c.add("dn: " + BASE, "objectClass: top", "objectClass: domain", "dc: example");
    }
    for (int i = 0; i < 3; i++) {
      try (LDAPConnection c = connect(i);
          LDAPConnection next = connect((i + 1) % 3)) {
        c.add(user("u" + i));
        // read your writes: the server written to answered once it applied the write itself
        assertThat(c.getEntry("uid=u" + i + "," + BASE)).isNotNull();
        // another server, asked with the read-after-write control, waits until it applied it too
        assertThat(next.search(readAfterWrite("uid=u" + i + "," + BASE)).getEntryCount())
            .isEqualTo(1);
      }
    }
    try (LDAPConnection c = connect(2)) {
      c.modify(
          "uid=u0," + BASE, new Modification(ModificationType.REPLACE, "description", "changed"));
      LDAPException exists =
          org.junit.jupiter.api.Assertions.assertThrows(
              LDAPException.class, () -> c.add(user("u1")));
      assertThat(exists.getResultCode()).isEqualTo(ResultCode.ENTRY_ALREADY_EXISTS);
    }
    // Every server holds the same entries, down to the values the preparation assigned.
    Entry reference = awaitEntry(0, "uid=u2," + BASE);
    for (int i = 0; i < 3; i++) {
      Entry copy = awaitEntry(i, "uid=u2," + BASE);
      assertThat(copy.getAttributeValue("entryUUID"))
          .isEqualTo(reference.getAttributeValue("entryUUID"));
      assertThat(copy.getAttributeValue("createTimestamp"))
          .isEqualTo(reference.getAttributeValue("createTimestamp"));
      assertThat(copy.getAttributeValueBytes("userPassword"))
          .isEqualTo(reference.getAttributeValueBytes("userPassword"));
    }
    long deadline = System.nanoTime() + WAIT.toNanos();
    for (int i = 0; i < 3; i++) {
      while (!"changed".equals(read(i, "uid=u0," + BASE).getAttributeValue("description"))) {
        assertThat(System.nanoTime()).as("the modify reached ds" + i).isLessThan(deadline);
        Thread.sleep(50); // polling interval of a condition with a deadline
      }
    }

    int leader = awaitLeader();
    String metrics = http(leader, "/metrics");
    assertThat(metrics)
        .contains("rockds_replication_role{role=\"leader\"} 1.0")
        .contains("rockds_replication_writable 1.0")
        .containsPattern("rockds_replication_applied_index [1-9]")
        .containsPattern("rockds_replication_term [1-9]");
    // The leader knows how far behind each member is.
    assertThat(metrics.lines().filter(l -> l.startsWith("rockds_replication_member_lag{")))
        .hasSize(3)
        .noneMatch(l -> l.endsWith("NaN"));
    assertThat(http(leader, "/health")).isEqualTo("200 ready\n");
    Entry monitor = read(leader, "cn=Replication,cn=monitor");
    assertThat(monitor.getAttributeValue("ds-replication-role")).isEqualTo("leader");
    assertThat(monitor.getAttributeValue("ds-replication-writable")).isEqualTo("true");
    assertThat(monitor.getAttributeValues("ds-replication-member")).hasSize(3);
    assertThat(monitor.getAttributeValueAsLong("ds-replication-applied-index"))
        .isGreaterThanOrEqualTo(5);
    servers[leader].close();
    servers[leader] = null;
    int other = (leader + 1) % 3;
    try (LDAPConnection c = connect(other)) {
      c.add(user("after-failover"));
    }
    assertThat(awaitLeader()).isNotEqualTo(leader);

    servers[leader] = DirectoryServer.start(instances[leader]);
    Entry caughtUp = awaitEntry(leader, "uid=after-failover," + BASE);
    assertThat(caughtUp.getAttributeValue("entryUUID"))
        .isEqualTo(read(other, "uid=after-failover," + BASE).getAttributeValue("entryUUID"));

    // cn=changelog: each change under the same number (its log index) on every server; the refused
    // add of u1 recorded nothing.
    List<String> changes = changelog(other);
    assertThat(changes).hasSize(6);
    assertThat(changes.get(0)).endsWith(" add " + BASE);
    assertThat(changes.get(4)).endsWith(" modify uid=u0," + BASE);
    for (int i = 0; i < 3; i++) {
      long changelogDeadline = System.nanoTime() + WAIT.toNanos();
      while (!changelog(i).equals(changes)) {
        assertThat(System.nanoTime()).as("ds" + i + "'s changelog").isLessThan(changelogDeadline);
        Thread.sleep(50); // polling interval of a condition with a deadline
      }
    }
  }

  /** Binds as {@code dn} on server {@code i}; the result code (a refusal is no exception here). */
  private ResultCode bind(int i, String dn, String password) throws LDAPException {
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", servers[i].ldapPort())) {
      return c.bind(dn, password).getResultCode();
    } catch (LDAPException e) {
      return e.getResultCode();
    }
  }

  /** Server {@code i}'s copy of {@code dn}, once it applied every write committed before. */
  private Entry readCommitted(int i, String dn) throws LDAPException {
    try (LDAPConnection c = connect(i)) {
      SearchRequest request = readAfterWrite(dn);
      request.setAttributes("*", "+");
      return c.search(request).getSearchEntries().get(0);
    }
  }

  /** Polls until server {@code i}'s cn=changelog equals {@code expected}, within a deadline. */
  private void awaitChangelog(int i, List<String> expected) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!changelog(i).equals(expected)) {
      assertThat(System.nanoTime()).as("ds" + i + "'s changelog").isLessThan(deadline);
      Thread.sleep(50); // polling interval of a condition with a deadline
    }
  }

  @Test
  void aPasswordChangedOnOneServerWorksOnEveryServer() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    String dn = "uid=pm," + BASE;
    try (LDAPConnection c = connect(0)) {
      c.add("dn: " + BASE, "objectClass: top", "objectClass: domain", "dc: example");
      c.add(user("pm"));
    }
    awaitEntry(1, dn);
    // The user changes their own password on ds1 (giving the old one) ...
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", servers[1].ldapPort())) {
      c.bind(dn, "secret-pm");
      assertThat(
              c.processExtendedOperation(
                      new PasswordModifyExtendedRequest(null, "secret-pm", "Changed-Secret-91"))
                  .getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
    }
    for (int i = 0; i < 3; i++) {
      readCommitted(i, dn);
      assertThat(bind(i, dn, "Changed-Secret-91"))
          .as("new password on ds" + i)
          .isEqualTo(ResultCode.SUCCESS);
      assertThat(bind(i, dn, "secret-pm"))
          .as("old password on ds" + i)
          .isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }
    // ... and an administrator has ds2 generate one: generated once, so the same on every server.
    String generated;
    try (LDAPConnection c = connect(2)) {
      PasswordModifyExtendedResult result =
          (PasswordModifyExtendedResult)
              c.processExtendedOperation(
                  new PasswordModifyExtendedRequest(dn, (String) null, null));
      generated = result.getGeneratedPassword();
    }
    assertThat(generated).isNotEmpty();
    for (int i = 0; i < 3; i++) {
      readCommitted(i, dn);
      assertThat(bind(i, dn, generated))
          .as("generated password on ds" + i)
          .isEqualTo(ResultCode.SUCCESS);
    }
    // Both changes are modifies in cn=changelog (with the failure the old password was, and its
    // clearing), under the same numbers on every server.
    List<String> changes = changelog(0);
    assertThat(changes.size()).isGreaterThanOrEqualTo(4);
    assertThat(changes.get(2)).endsWith(" modify " + dn);
    assertThat(changes.subList(2, changes.size())).allMatch(c -> c.endsWith(" modify " + dn));
    awaitChangelog(1, changes);
    awaitChangelog(2, changes);
  }

  @Test
  void failedBindsOnAnyServerLockTheAccountOnEveryServer() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    String locked = "uid=guessed," + BASE;
    String relieved = "uid=relieved," + BASE;
    try (LDAPConnection c = connect(0)) {
      c.add("dn: " + BASE, "objectClass: top", "objectClass: domain", "dc: example");
      c.add(user("guessed"));
      c.add(user("relieved"));
    }
    awaitEntry(1, relieved);
    awaitEntry(2, relieved);
    // A successful bind with no failures to forget writes nothing.
    List<String> before = changelog(0);
    assertThat(bind(0, relieved, "secret-relieved")).isEqualTo(ResultCode.SUCCESS);
    assertThat(changelog(0)).isEqualTo(before);

    // The default policy locks at 10 failures: 4 on ds0, 3 on ds1, 3 on ds2 are 10 in all.
    int count = InitialConfig.DEFAULT_LOCKOUT_FAILURE_COUNT;
    for (int k = 0; k < count; k++) {
      assertThat(bind(k % 3, locked, "Wrong-Guess-" + k)).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }
    for (int i = 0; i < 3; i++) {
      assertThat(readCommitted(i, locked).getAttributeValues("pwdFailureTime")).hasSize(count);
      assertThat(bind(i, locked, "secret-guessed"))
          .as("the right password on ds" + i + " after " + count + " failures in the group")
          .isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }

    // Failures recorded through ds0 are forgotten by a successful bind on ds1, everywhere.
    assertThat(bind(0, relieved, "Wrong-Guess")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    assertThat(readCommitted(1, relieved).hasAttribute("pwdFailureTime")).isTrue();
    assertThat(bind(1, relieved, "secret-relieved")).isEqualTo(ResultCode.SUCCESS);
    for (int i = 0; i < 3; i++) {
      assertThat(readCommitted(i, relieved).hasAttribute("pwdFailureTime")).isFalse();
    }
  }

  @Test
  void anAciWrittenOnOneServerGovernsEveryServer() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    String dn = "uid=self," + BASE;
    Modification description = new Modification(ModificationType.REPLACE, "description", "mine");
    try (LDAPConnection c = connect(0)) {
      c.add("dn: " + BASE, "objectClass: top", "objectClass: domain", "dc: example");
      c.add(user("self"));
    }
    awaitEntry(1, dn);
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", servers[1].ldapPort())) {
      c.bind(dn, "secret-self");
      // Refused by the global ACIs: ds1 has now loaded the entry ACIs (none) into its cache.
      assertThatThrownBy(() -> c.modify(dn, description))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
    }
    try (LDAPConnection c = connect(0)) {
      c.modify(
          BASE,
          new Modification(
              ModificationType.ADD,
              "aci",
              "(targetattr=\"description\")(version 3.0; acl \"self description\";"
                  + " allow (write) userdn=\"ldap:///self\";)"));
    }
    readCommitted(1, BASE);
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", servers[1].ldapPort())) {
      c.bind(dn, "secret-self");
      assertThat(c.modify(dn, description).getResultCode()).isEqualTo(ResultCode.SUCCESS);
    }
  }

  /** "number type targetDN" of every change in server {@code i}'s cn=changelog. */
  private List<String> changelog(int i) throws LDAPException {
    List<String> changes = new ArrayList<>();
    try (LDAPConnection c = connect(i)) {
      for (Entry e :
          c.search("cn=changelog", SearchScope.ONE, "(changeNumber>=0)").getSearchEntries()) {
        changes.add(
            e.getAttributeValue("changeNumber")
                + " "
                + e.getAttributeValue("changeType")
                + " "
                + e.getAttributeValue("targetDN"));
      }
    }
    return changes;
  }

  @Test
  void aServerWithoutMajorityRefusesWritesAndKeepsServingReads() throws Exception {
    setUpGroup(Duration.ofSeconds(3));
    awaitLeader(); // the first write must not race the first election against its short timeout
    String user = "uid=cut-off," + BASE;
    try (LDAPConnection c = connect(0)) {
      c.add("dn: " + BASE, "objectClass: top", "objectClass: domain", "dc: example");
      c.add(user("cut-off"));
    }
    assertThat(bind(0, user, "Wrong-Guess")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    awaitEntry(1, user);
    awaitEntry(2, user);
    awaitHealth(0, "200 ready");
    servers[1].close();
    servers[1] = null;
    servers[2].close();
    servers[2] = null;
    // Reads served, writes refused: /health says so, with the reason.
    assertThat(awaitHealth(0, "200 degraded: ")).contains("no leader").contains("majority");
    assertThat(http(0, "/metrics")).contains("rockds_replication_writable 0.0");
    Entry monitor = read(0, "cn=Replication,cn=monitor");
    assertThat(monitor.getAttributeValue("ds-replication-writable")).isEqualTo("false");
    assertThat(monitor.getAttributeValue("ds-replication-unwritable-reason")).contains("no leader");
    try (LDAPConnection c = connect(0)) {
      // A linearizable read cannot be confirmed without a majority either.
      assertThatThrownBy(() -> c.search(readAfterWrite(BASE)))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.UNAVAILABLE));
      assertThatThrownBy(() -> c.add(user("alone")))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.UNAVAILABLE);
                assertThat(e.getDiagnosticMessage()).contains("no majority");
              });
      assertThat(c.getEntry(BASE)).isNotNull();
    }
    // Binds are answered: the state they write (clearing the failure, adding one) cannot be.
    assertThat(bind(0, user, "secret-cut-off")).isEqualTo(ResultCode.SUCCESS);
    assertThat(bind(0, user, "Wrong-Guess")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
  }

  @Test
  void aServerWhoseDatabaseWasLostIsRebuiltFromItsSnapshotAndTheLog() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    try (LDAPConnection c = connect(0)) {
      c.add("dn: " + BASE, "objectClass: top", "objectClass: domain", "dc: example");
      c.add(user("before-snapshot"));
    }
    awaitEntry(1, "uid=before-snapshot," + BASE);
    long snapshot = servers[1].replication().takeSnapshot();
    assertThat(snapshot).isGreaterThanOrEqualTo(2);
    try (LDAPConnection c = connect(2)) {
      c.add(user("after-snapshot"));
    }
    awaitEntry(1, "uid=after-snapshot," + BASE);
    servers[1].close();
    servers[1] = null;
    Path database = instances[1].root().resolve("db").resolve("userRoot");
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(database)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.delete(p);
      }
    }

    servers[1] = DirectoryServer.start(instances[1]);
    // From the snapshot (the base and the first entry), then from the log after it.
    Entry rebuilt = awaitEntry(1, "uid=after-snapshot," + BASE);
    assertThat(read(1, "uid=before-snapshot," + BASE)).isNotNull();
    assertThat(rebuilt.getAttributeValue("entryUUID"))
        .isEqualTo(read(0, "uid=after-snapshot," + BASE).getAttributeValue("entryUUID"));
    try (LDAPConnection c = connect(1)) {
      c.add(user("on-the-rebuilt-server"));
    }
    awaitEntry(0, "uid=on-the-rebuilt-server," + BASE);
  }
}
