package io.rockds.server.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.backup.BackupDirectory;
import io.rockds.server.backup.BackupManifest;
import io.rockds.testsupport.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replication group restored from the backup of one of its servers: written to, backed up on one
 * server, changed (entries added, deleted and modified, the schema extended), then, every server
 * stopped, the backup restored as a new group on that server and the other two emptied and added:
 * every server holds exactly the backup's entries and shared settings, the group takes writes
 * again, and a restart replays nothing from before the restore. Restoring into one server alone,
 * and starting a new group while a server of the group runs, are refused.
 */
class GroupRestoreIT {
  private static final String BASE = ReplicationGroup.BASE;
  private static final Duration WAIT = ReplicationGroup.WAIT;
  private static final String BACKED_UP_TYPE =
      "( 1.3.6.1.4.1.99999.3.1 NAME 'rockdsBackedUp' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )";
  private static final String LATER_TYPE =
      "( 1.3.6.1.4.1.99999.3.2 NAME 'rockdsAddedLater' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )";

  @TempDir Path directory;

  @AutoClose private ReplicationGroup group;

  @Test
  void aBackupOfOneServerRestoresTheWholeGroupToItsContent() throws Exception {
    group = ReplicationGroup.start(directory, Duration.ofSeconds(30));
    group.awaitLeader();
    group.addBase(0, "kept", "deleted-later", "changed-later");
    addAttributeType(1, BACKED_UP_TYPE);
    group.readCommitted(0, BASE); // ds0 applied every write: the backup holds them all
    TreeMap<String, String> backedUp = group.content(0);
    assertThat(backedUp).hasSize(4);
    String backupId = backUp(0);

    try (LDAPConnection c = group.connect(1)) {
      c.add(ReplicationGroup.user("added-later"));
      for (int i = 0; i < 10; i++) {
        c.add(ReplicationGroup.user("added-later-" + i));
      }
      c.delete("uid=deleted-later," + BASE);
      c.modify(
          "uid=changed-later," + BASE,
          new Modification(ModificationType.REPLACE, "description", "changed later"));
    }
    addAttributeType(2, LATER_TYPE);
    for (int i = 0; i < 3; i++) {
      group.readCommitted(i, BASE);
      assertThat(group.content(i)).isNotEqualTo(backedUp);
    }
    // ds0 stops first: the others number changes it never learns of.
    long numberedByDs0 = group.lastChangeNumber(0);
    group.stop(0);
    try (LDAPConnection c = group.connect(1)) {
      for (int i = 0; i < 5; i++) {
        c.add(ReplicationGroup.user("while-ds0-was-down-" + i));
      }
    }
    group.readCommitted(2, BASE);
    long numberedBefore = group.lastChangeNumber(2); // the highest change number the group gave
    assertThat(numberedBefore).isGreaterThan(numberedByDs0);
    for (int i = 1; i < 3; i++) {
      group.stop(i);
    }
    BackupDirectory backups = new BackupDirectory(backupDirectory(), Clock.systemUTC());
    BackupManifest backup = backups.get(backupId);

    // Restored into one server alone, the backup would be undone by the group: refused.
    assertThatThrownBy(() -> backups.restore(backup, group.instance(0), line -> {}))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("of a replication group")
        .hasMessageContaining("--newReplicationGroup");
    // A new group while a server of the group runs: that server would go on with the old data.
    group.start(1);
    assertThatThrownBy(() -> GroupRestore.newGroup(backups, backup, group.instance(0), line -> {}))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("the server " + group.address(1) + " of this server's replication")
        .hasMessageContaining("stop every server of the group first");
    group.stop(1);

    GroupRestore.newGroup(backups, backup, group.instance(0), line -> {});
    GroupRestore.resetMember(group.instance(1), line -> {});
    GroupRestore.resetMember(group.instance(2), line -> {});
    group.start(0);
    assertThat(group.awaitLeader()).isZero();
    // Answered once ds0 committed an entry of its term: the membership it leads with too.
    group.readCommitted(0, BASE);
    for (int i = 1; i < 3; i++) {
      join(i);
    }

    for (int i = 0; i < 3; i++) {
      group.awaitContent(i, backedUp);
      assertThat(schemaValues(i)).anyMatch(v -> v.contains("'rockdsBackedUp'"));
      assertThat(schemaValues(i)).noneMatch(v -> v.contains("'rockdsAddedLater'"));
    }

    try (LDAPConnection c = group.connect(2)) {
      c.add(ReplicationGroup.user("after-the-restore"));
    }
    for (int i = 0; i < 3; i++) {
      group.awaitEntry(i, "uid=after-the-restore," + BASE);
    }
    // The new group numbers its changes above every number the group gave before the restore,
    // those ds0 never saw included, so a changelog consumer never sees a number twice; every
    // server numbers them alike.
    long afterRestore = changeNumberOf(0, "uid=after-the-restore," + BASE);
    assertThat(afterRestore).isGreaterThan(numberedBefore);
    for (int i = 0; i < 3; i++) {
      readChangelogUpTo(i, afterRestore);
      assertThat(changeNumberOf(i, "uid=after-the-restore," + BASE)).isEqualTo(afterRestore);
      assertThat(group.lastChangeNumber(i)).isEqualTo(afterRestore);
    }
    // Restarted, the servers replay the new group's log alone: nothing of before the restore.
    TreeMap<String, String> restored = group.content(1);
    assertThat(restored).hasSize(backedUp.size() + 1);
    for (int i : List.of(0, 2)) {
      group.stop(i);
      group.start(i);
      assertThat(group.content(i)).as("ds" + i + " as it restarted").isEqualTo(restored);
      group.awaitHealth(i, "200 ready");
    }
    try (LDAPConnection c = group.connect(0)) {
      c.add(ReplicationGroup.user("after-the-restarts"));
    }
    for (int i = 0; i < 3; i++) {
      group.awaitEntry(i, "uid=after-the-restarts," + BASE);
    }
    TreeMap<String, String> last = group.content(0);
    assertThat(last).hasSize(restored.size() + 1);
    for (int i = 1; i < 3; i++) {
      group.awaitContent(i, last);
    }
    assertThat(changeNumberOf(0, "uid=after-the-restarts," + BASE)).isGreaterThan(afterRestore);
  }

  /** Waits until server {@code i}'s changelog reaches change {@code number}. */
  private void readChangelogUpTo(int i, long number) throws InterruptedException {
    Await.until(
        "ds" + i + "'s changelog reaches " + number,
        WAIT,
        () -> group.lastChangeNumber(i) >= number);
  }

  /** The number of the change of {@code dn} in server {@code i}'s changelog (the only one). */
  private long changeNumberOf(int i, String dn) throws LDAPException {
    try (LDAPConnection c = group.connect(i)) {
      List<Long> numbers =
          c.search("cn=changelog", SearchScope.ONE, "(changeNumber>=0)").getSearchEntries().stream()
              .filter(e -> e.getAttributeValue("targetDN").equalsIgnoreCase(dn))
              .map(e -> e.getAttributeValueAsLong("changeNumber"))
              .toList();
      assertThat(numbers).as("the changes of " + dn + " on ds" + i).hasSize(1);
      return numbers.get(0);
    }
  }

  /**
   * Servers of the group before a restore that were not reset (dsrepl reset-server forgotten) do
   * not form that group again once they reach a member of the restored group: running when it
   * starts, they leave their group within seconds; started while it runs, they never take part in
   * it. Either way they refuse writes and linearizable reads with unavailable (52), saying why and
   * what to do, /health answers 503, the error log says so, and the restored group goes on
   * untouched.
   */
  @Test
  void serversOfTheGroupBeforeARestoreThatWereNotResetLeaveIt() throws Exception {
    group = ReplicationGroup.start(directory, Duration.ofSeconds(5));
    group.awaitLeader();
    group.addBase(0, "backed-up");
    group.readCommitted(0, BASE);
    String backupId = backUp(0);
    for (int i = 0; i < 3; i++) {
      group.stop(i);
    }
    BackupDirectory backups = new BackupDirectory(backupDirectory(), Clock.systemUTC());
    GroupRestore.newGroup(backups, backups.get(backupId), group.instance(0), line -> {});

    // ds1 and ds2 form their old group again while ds0 is down: nothing tells them yet.
    group.start(1);
    group.start(2);
    group.awaitLeader();
    try (LDAPConnection c = group.connect(1)) {
      c.add(ReplicationGroup.user("in-the-old-group"));
    }
    group.start(0);
    for (int i = 1; i < 3; i++) {
      group.awaitHealth(i, "503");
      assertRefusedAsReplaced(i);
    }
    awaitErrorLog(1, "was replaced by a group restored from a backup");
    assertThat(
            group
                .read(1, "cn=Replication,cn=monitor")
                .getAttributeValue("ds-replication-unwritable-reason"))
        .contains("dsrepl reset-server");

    // Started again while the restored group runs, ds2 never takes part in its old group.
    group.stop(2);
    group.start(2);
    assertThat(group.server(2).replication().status().replaced()).isTrue();
    assertRefusedAsReplaced(2);

    try (LDAPConnection c = group.connect(0)) {
      c.add(ReplicationGroup.user("in-the-restored-group"));
    }
    assertThat(group.read(0, "uid=in-the-old-group," + BASE)).isNull();
    assertThat(group.read(0, "uid=backed-up," + BASE)).isNotNull();
  }

  /** Waits until server {@code i}'s error log holds {@code text}. */
  private void awaitErrorLog(int i, String text) throws InterruptedException {
    Path errors = group.instance(i).logs().resolve("errors");
    Await.until(
        "ds" + i + "'s error log says " + text,
        WAIT,
        () -> Files.exists(errors) && Files.readString(errors).contains(text));
  }

  /** Server {@code i} refuses a write and a linearizable read: its group was replaced. */
  private void assertRefusedAsReplaced(int i) throws Exception {
    try (LDAPConnection c = group.connect(i)) {
      for (ThrowingCallable refused :
          List.<ThrowingCallable>of(
              () -> c.add(ReplicationGroup.user("refused-on-ds" + i)),
              () -> c.search(ReplicationGroup.readAfterWrite(BASE)))) {
        assertThatThrownBy(refused)
            .isInstanceOfSatisfying(
                LDAPException.class,
                e -> {
                  assertThat(e.getResultCode()).isEqualTo(ResultCode.UNAVAILABLE);
                  assertThat(e.getDiagnosticMessage())
                      .contains("was replaced by a group restored from a backup")
                      .contains("dsrepl reset-server");
                });
      }
      assertThat(c.getEntry(BASE)).as("reads go on from its copy").isNotNull();
    }
  }

  /**
   * Starts the emptied server {@code i} and has ds0 add it: it receives ds0's snapshot and asks to
   * be restarted to install it (bin/start-ds' process restarts itself), which the test does here.
   */
  private void join(int i) throws Exception {
    group.start(i);
    CompletableFuture<Void> added =
        CompletableFuture.runAsync(
            () -> {
              try {
                group.server(0).replication().addServer(group.address(i));
              } catch (LDAPException e) {
                throw new CompletionException(e);
              }
            });
    assertThat(group.restartWhenAsked(i)).contains("installing the replication snapshot");
    added.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    group.awaitHealth(i, "200 ready"); // it knows the leader again after its restart
    // A leader elected as it restarted committed an entry of its term, and its membership.
    group.readCommitted(i, BASE);
  }

  private Path backupDirectory() {
    return directory.resolve("backups");
  }

  /** An online backup of server {@code i} through the backup task; returns its backup ID. */
  private String backUp(int i) throws Exception {
    String dn = "ds-task-id=group-backup,cn=Scheduled Tasks,cn=tasks";
    try (LDAPConnection c = group.connect(i)) {
      c.add(
          new Entry(
              dn,
              new Attribute("objectClass", "top", "ds-task", "ds-task-backup"),
              new Attribute("ds-task-id", "group-backup"),
              new Attribute("ds-backup-directory-path", backupDirectory().toString()),
              new Attribute("ds-task-backup-all", "true")));
      Entry task =
          Await.value(
              "the backup task ended",
              WAIT,
              () -> {
                Entry now = c.getEntry(dn);
                String state = now.getAttributeValue("ds-task-state");
                return state.equals("RUNNING") || state.equals("WAITING_ON_START_TIME")
                    ? null
                    : now;
              });
      assertThat(task.getAttributeValue("ds-task-state"))
          .as(task.toLDIFString())
          .isEqualTo("COMPLETED_SUCCESSFULLY");
      return task.getAttributeValue("ds-backup-id");
    }
  }

  private void addAttributeType(int i, String definition) throws LDAPException {
    try (LDAPConnection c = group.connect(i)) {
      c.modify("cn=schema", new Modification(ModificationType.ADD, "attributeTypes", definition));
    }
  }

  private List<String> schemaValues(int i) throws LDAPException {
    try (LDAPConnection c = group.connect(i)) {
      return Arrays.asList(
          c.getEntry("cn=schema", "attributeTypes").getAttributeValues("attributeTypes"));
    }
  }
}
