package io.rockds.server.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedResult;
import io.rockds.config.InitialConfig;
import io.rockds.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
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
  private static final String BASE = ReplicationGroup.BASE;
  private static final Duration WAIT = ReplicationGroup.WAIT;

  @TempDir Path directory;

  @AutoClose private ReplicationGroup group;

  private void setUpGroup(Duration writeTimeout) throws Exception {
    group = ReplicationGroup.start(directory, writeTimeout);
  }

  @Test
  void writesOnAnyServerReachAllAndTheGroupSurvivesItsLeader() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    group.addBase(0);
    for (int i = 0; i < 3; i++) {
      try (LDAPConnection c = group.connect(i);
          LDAPConnection next = group.connect((i + 1) % 3)) {
        c.add(ReplicationGroup.user("u" + i));
        // read your writes: the server written to answered once it applied the write itself
        assertThat(c.getEntry("uid=u" + i + "," + BASE)).isNotNull();
        // another server, asked with the read-after-write control, waits until it applied it too
        assertThat(
                next.search(ReplicationGroup.readAfterWrite("uid=u" + i + "," + BASE))
                    .getEntryCount())
            .isEqualTo(1);
      }
    }
    try (LDAPConnection c = group.connect(2)) {
      c.modify(
          "uid=u0," + BASE, new Modification(ModificationType.REPLACE, "description", "changed"));
      LDAPException exists =
          org.junit.jupiter.api.Assertions.assertThrows(
              LDAPException.class, () -> c.add(ReplicationGroup.user("u1")));
      assertThat(exists.getResultCode()).isEqualTo(ResultCode.ENTRY_ALREADY_EXISTS);
    }
    // Every server holds the same entries, down to the values the preparation assigned.
    Entry reference = group.awaitEntry(0, "uid=u2," + BASE);
    for (int i = 0; i < 3; i++) {
      Entry copy = group.awaitEntry(i, "uid=u2," + BASE);
      assertThat(copy.getAttributeValue("entryUUID"))
          .isEqualTo(reference.getAttributeValue("entryUUID"));
      assertThat(copy.getAttributeValue("createTimestamp"))
          .isEqualTo(reference.getAttributeValue("createTimestamp"));
      assertThat(copy.getAttributeValueBytes("userPassword"))
          .isEqualTo(reference.getAttributeValueBytes("userPassword"));
    }
    for (int i = 0; i < 3; i++) {
      int server = i;
      Await.until(
          "the modify reached ds" + i,
          WAIT,
          () ->
              "changed"
                  .equals(group.read(server, "uid=u0," + BASE).getAttributeValue("description")));
    }

    int leader = group.awaitLeader();
    String metrics = group.http(leader, "/metrics");
    assertThat(metrics)
        .contains("rockds_replication_role{role=\"leader\"} 1.0")
        .contains("rockds_replication_writable 1.0")
        .containsPattern("rockds_replication_applied_index [1-9]")
        .containsPattern("rockds_replication_term [1-9]");
    // The leader knows how far behind each member is.
    assertThat(metrics.lines().filter(l -> l.startsWith("rockds_replication_member_lag{")))
        .hasSize(3)
        .noneMatch(l -> l.endsWith("NaN"));
    assertThat(group.http(leader, "/health")).isEqualTo("200 ready\n");
    Entry monitor = group.read(leader, "cn=Replication,cn=monitor");
    assertThat(monitor.getAttributeValue("ds-replication-role")).isEqualTo("leader");
    assertThat(monitor.getAttributeValue("ds-replication-writable")).isEqualTo("true");
    assertThat(monitor.getAttributeValues("ds-replication-member")).hasSize(3);
    assertThat(monitor.getAttributeValueAsLong("ds-replication-applied-index"))
        .isGreaterThanOrEqualTo(5);
    group.stop(leader);
    int other = (leader + 1) % 3;
    try (LDAPConnection c = group.connect(other)) {
      c.add(ReplicationGroup.user("after-failover"));
    }
    assertThat(group.awaitLeader()).isNotEqualTo(leader);

    group.start(leader);
    Entry caughtUp = group.awaitEntry(leader, "uid=after-failover," + BASE);
    assertThat(caughtUp.getAttributeValue("entryUUID"))
        .isEqualTo(group.read(other, "uid=after-failover," + BASE).getAttributeValue("entryUUID"));

    // cn=changelog: each change under the same number (its log index) on every server; the refused
    // add of u1 recorded nothing.
    List<String> changes = group.changelog(other);
    assertThat(changes).hasSize(6);
    assertThat(changes.get(0)).endsWith(" add " + BASE);
    assertThat(changes.get(4)).endsWith(" modify uid=u0," + BASE);
    for (int i = 0; i < 3; i++) {
      group.awaitChangelog(i, changes);
    }
  }

  /**
   * Clients writing at once through every server, each write answered on its own: of the adds of
   * one DN racing from every server amid the other writes, one succeeds and the others are refused
   * with entryAlreadyExists (68). Every server applies every write once, in one order, and numbers
   * the changes alike: a number of its own for each change. (Writes share a log entry once more are
   * under way on a server than its worker pool runs; ReplicationNodeTest makes them.)
   */
  @Test
  void concurrentWritesThroughEveryServerEachGetTheirOwnResultAndOneNumbering() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    group.addBase(0);
    int clients = 12;
    int each = 8;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<Future<ResultCode>> contested = new ArrayList<>();
    try {
      for (int w = 0; w < clients; w++) {
        int client = w;
        contested.add(
            pool.submit(
                () -> {
                  ResultCode result = null;
                  try (LDAPConnection c = group.connect(client % 3)) {
                    for (int k = 0; k < each; k++) {
                      String uid = "c" + client + "-" + k;
                      c.add(ReplicationGroup.user(uid));
                      // read your writes, under load too
                      assertThat(c.getEntry("uid=" + uid + "," + BASE)).isNotNull();
                      if (k == each / 2) {
                        try {
                          c.add(ReplicationGroup.user("contested"));
                          result = ResultCode.SUCCESS;
                        } catch (LDAPException e) {
                          result = e.getResultCode();
                        }
                      }
                    }
                  }
                  return result;
                }));
      }
      List<ResultCode> results = new ArrayList<>();
      for (Future<ResultCode> f : contested) {
        results.add(f.get(WAIT.toSeconds(), TimeUnit.SECONDS)); // bounds the test, not the writes
      }
      assertThat(results).containsOnlyOnce(ResultCode.SUCCESS);
      assertThat(results.stream().filter(r -> !ResultCode.SUCCESS.equals(r)))
          .hasSize(clients - 1)
          .allMatch(ResultCode.ENTRY_ALREADY_EXISTS::equals);
    } finally {
      pool.shutdownNow();
    }
    String last = "uid=c" + (clients - 1) + "-" + (each - 1) + "," + BASE;
    for (int i = 0; i < 3; i++) {
      try (LDAPConnection c = group.connect(i)) {
        assertThat(c.search(ReplicationGroup.readAfterWrite(last)).getEntryCount()).isEqualTo(1);
      }
    }
    // The base, every client's adds and one contested add, each numbered apart (two changes under
    // one number would leave one record in the changelog), in one order on every server.
    List<String> changes = group.changelog(0);
    assertThat(changes).hasSize(1 + clients * each + 1);
    assertThat(changes.stream().filter(c -> c.endsWith(" add uid=contested," + BASE))).hasSize(1);
    for (int i = 1; i < 3; i++) {
      group.awaitChangelog(i, changes);
    }
    Entry monitor = group.read(group.awaitLeader(), "cn=Replication,cn=monitor");
    assertThat(monitor.getAttributeValueAsLong("ds-replication-records-applied"))
        .isGreaterThanOrEqualTo(monitor.getAttributeValueAsLong("ds-replication-entries-applied"))
        .isGreaterThanOrEqualTo(changes.size());
  }

  @Test
  void aPasswordChangedOnOneServerWorksOnEveryServer() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    String dn = "uid=pm," + BASE;
    group.addBase(0, "pm");
    group.awaitEntry(1, dn);
    // The user changes their own password on ds1 (giving the old one) ...
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", group.server(1).ldapPort())) {
      c.bind(dn, "secret-pm");
      assertThat(
              c.processExtendedOperation(
                      new PasswordModifyExtendedRequest(null, "secret-pm", "Changed-Secret-91"))
                  .getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
    }
    for (int i = 0; i < 3; i++) {
      group.readCommitted(i, dn);
      assertThat(group.bind(i, dn, "Changed-Secret-91"))
          .as("new password on ds" + i)
          .isEqualTo(ResultCode.SUCCESS);
      assertThat(group.bind(i, dn, "secret-pm"))
          .as("old password on ds" + i)
          .isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }
    // ... and an administrator has ds2 generate one: generated once, so the same on every server.
    String generated;
    try (LDAPConnection c = group.connect(2)) {
      PasswordModifyExtendedResult result =
          (PasswordModifyExtendedResult)
              c.processExtendedOperation(
                  new PasswordModifyExtendedRequest(dn, (String) null, null));
      generated = result.getGeneratedPassword();
    }
    assertThat(generated).isNotEmpty();
    for (int i = 0; i < 3; i++) {
      group.readCommitted(i, dn);
      assertThat(group.bind(i, dn, generated))
          .as("generated password on ds" + i)
          .isEqualTo(ResultCode.SUCCESS);
    }
    // Both changes are modifies in cn=changelog (with the failure the old password was, and its
    // clearing), under the same numbers on every server.
    List<String> changes = group.changelog(0);
    assertThat(changes.size()).isGreaterThanOrEqualTo(4);
    assertThat(changes.get(2)).endsWith(" modify " + dn);
    assertThat(changes.subList(2, changes.size())).allMatch(c -> c.endsWith(" modify " + dn));
    group.awaitChangelog(1, changes);
    group.awaitChangelog(2, changes);
  }

  @Test
  void failedBindsOnAnyServerLockTheAccountOnEveryServer() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    String locked = "uid=guessed," + BASE;
    String relieved = "uid=relieved," + BASE;
    group.addBase(0, "guessed", "relieved");
    group.awaitEntry(1, relieved);
    group.awaitEntry(2, relieved);
    // A successful bind with no failures to forget writes nothing.
    List<String> before = group.changelog(0);
    assertThat(group.bind(0, relieved, "secret-relieved")).isEqualTo(ResultCode.SUCCESS);
    assertThat(group.changelog(0)).isEqualTo(before);

    // The default policy locks at 10 failures: 4 on ds0, 3 on ds1, 3 on ds2 are 10 in all.
    int count = InitialConfig.DEFAULT_LOCKOUT_FAILURE_COUNT;
    for (int k = 0; k < count; k++) {
      assertThat(group.bind(k % 3, locked, "Wrong-Guess-" + k))
          .isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }
    for (int i = 0; i < 3; i++) {
      assertThat(group.readCommitted(i, locked).getAttributeValues("pwdFailureTime"))
          .hasSize(count);
      assertThat(group.bind(i, locked, "secret-guessed"))
          .as("the right password on ds" + i + " after " + count + " failures in the group")
          .isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }

    // Failures recorded through ds0 are forgotten by a successful bind on ds1, everywhere.
    assertThat(group.bind(0, relieved, "Wrong-Guess")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    assertThat(group.readCommitted(1, relieved).hasAttribute("pwdFailureTime")).isTrue();
    assertThat(group.bind(1, relieved, "secret-relieved")).isEqualTo(ResultCode.SUCCESS);
    for (int i = 0; i < 3; i++) {
      assertThat(group.readCommitted(i, relieved).hasAttribute("pwdFailureTime")).isFalse();
    }
  }

  @Test
  void anAciWrittenOnOneServerGovernsEveryServer() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    String dn = "uid=self," + BASE;
    Modification description = new Modification(ModificationType.REPLACE, "description", "mine");
    group.addBase(0, "self");
    group.awaitEntry(1, dn);
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", group.server(1).ldapPort())) {
      c.bind(dn, "secret-self");
      // Refused by the global ACIs: ds1 has now loaded the entry ACIs (none) into its cache.
      assertThatThrownBy(() -> c.modify(dn, description))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
    }
    try (LDAPConnection c = group.connect(0)) {
      c.modify(
          BASE,
          new Modification(
              ModificationType.ADD,
              "aci",
              "(targetattr=\"description\")(version 3.0; acl \"self description\";"
                  + " allow (write) userdn=\"ldap:///self\";)"));
    }
    group.readCommitted(1, BASE);
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", group.server(1).ldapPort())) {
      c.bind(dn, "secret-self");
      assertThat(c.modify(dn, description).getResultCode()).isEqualTo(ResultCode.SUCCESS);
    }
  }

  @Test
  void aServerWithoutMajorityRefusesWritesAndKeepsServingReads() throws Exception {
    setUpGroup(Duration.ofSeconds(3));
    group.awaitLeader(); // the first write must not race the first election against its short
    // timeout
    String user = "uid=cut-off," + BASE;
    group.addBase(0, "cut-off");
    assertThat(group.bind(0, user, "Wrong-Guess")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
    group.awaitEntry(1, user);
    group.awaitEntry(2, user);
    group.awaitHealth(0, "200 ready");
    group.stop(1);
    group.stop(2);
    // Reads served, writes refused: /health says so, with the reason.
    assertThat(group.awaitHealth(0, "200 degraded: ")).contains("no leader").contains("majority");
    assertThat(group.http(0, "/metrics")).contains("rockds_replication_writable 0.0");
    Entry monitor = group.read(0, "cn=Replication,cn=monitor");
    assertThat(monitor.getAttributeValue("ds-replication-writable")).isEqualTo("false");
    assertThat(monitor.getAttributeValue("ds-replication-unwritable-reason")).contains("no leader");
    try (LDAPConnection c = group.connect(0)) {
      // A linearizable read cannot be confirmed without a majority either: refused in bounded time.
      long start = System.nanoTime();
      assertThatThrownBy(() -> c.search(ReplicationGroup.readAfterWrite(BASE)))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.UNAVAILABLE);
                assertThat(e.getDiagnosticMessage())
                    .contains("did not confirm its commit index within 3000 ms")
                    .contains("no majority");
              });
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
      assertThatThrownBy(() -> c.add(ReplicationGroup.user("alone")))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.UNAVAILABLE);
                assertThat(e.getDiagnosticMessage()).contains("no majority");
              });
      assertThat(c.getEntry(BASE)).isNotNull();
    }
    // Binds are answered: the state they write (clearing the failure, adding one) cannot be.
    assertThat(group.bind(0, user, "secret-cut-off")).isEqualTo(ResultCode.SUCCESS);
    assertThat(group.bind(0, user, "Wrong-Guess")).isEqualTo(ResultCode.INVALID_CREDENTIALS);
  }

  @Test
  void aServerWhoseDatabaseWasLostIsRebuiltFromItsSnapshotAndTheLog() throws Exception {
    setUpGroup(Duration.ofSeconds(30));
    group.addBase(0, "before-snapshot");
    group.awaitEntry(1, "uid=before-snapshot," + BASE);
    long snapshot = group.server(1).replication().takeSnapshot();
    assertThat(snapshot).isGreaterThanOrEqualTo(2);
    try (LDAPConnection c = group.connect(2)) {
      c.add(ReplicationGroup.user("after-snapshot"));
    }
    group.awaitEntry(1, "uid=after-snapshot," + BASE);
    group.stop(1);
    group.deleteDatabase(1);

    group.start(1);
    // From the snapshot (the base and the first entry), then from the log after it.
    Entry rebuilt = group.awaitEntry(1, "uid=after-snapshot," + BASE);
    assertThat(group.read(1, "uid=before-snapshot," + BASE)).isNotNull();
    assertThat(rebuilt.getAttributeValue("entryUUID"))
        .isEqualTo(group.read(0, "uid=after-snapshot," + BASE).getAttributeValue("entryUUID"));
    try (LDAPConnection c = group.connect(1)) {
      c.add(ReplicationGroup.user("on-the-rebuilt-server"));
    }
    group.awaitEntry(0, "uid=on-the-rebuilt-server," + BASE);
  }
}
