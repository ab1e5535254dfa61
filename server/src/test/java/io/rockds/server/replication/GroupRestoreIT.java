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
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.backup.BackupDirectory;
import io.rockds.server.backup.BackupManifest;
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
    TreeMap<String, String> backedUp = content(0);
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
      assertThat(content(i)).isNotEqualTo(backedUp);
    }
    long numberedBefore = lastChangeNumber(0); // the highest change number ds0 gave
    for (int i = 0; i < 3; i++) {
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
    for (int i = 1; i < 3; i++) {
      join(i);
    }

    for (int i = 0; i < 3; i++) {
      awaitContent(i, backedUp);
      assertThat(schemaValues(i)).anyMatch(v -> v.contains("'rockdsBackedUp'"));
      assertThat(schemaValues(i)).noneMatch(v -> v.contains("'rockdsAddedLater'"));
    }

    try (LDAPConnection c = group.connect(2)) {
      c.add(ReplicationGroup.user("after-the-restore"));
    }
    for (int i = 0; i < 3; i++) {
      group.awaitEntry(i, "uid=after-the-restore," + BASE);
    }
    // The new group numbers its changes above every number ds0 gave before the restore, so a
    // changelog consumer never sees a number twice; every server numbers them alike.
    long afterRestore = changeNumberOf(0, "uid=after-the-restore," + BASE);
    assertThat(afterRestore).isGreaterThan(numberedBefore);
    for (int i = 0; i < 3; i++) {
      readChangelogUpTo(i, afterRestore);
      assertThat(changeNumberOf(i, "uid=after-the-restore," + BASE)).isEqualTo(afterRestore);
      assertThat(lastChangeNumber(i)).isEqualTo(afterRestore);
    }
    // Restarted, the servers replay the new group's log alone: nothing of before the restore.
    TreeMap<String, String> restored = content(1);
    assertThat(restored).hasSize(backedUp.size() + 1);
    for (int i : List.of(0, 2)) {
      group.stop(i);
      group.start(i);
      assertThat(content(i)).as("ds" + i + " as it restarted").isEqualTo(restored);
      group.awaitHealth(i, "200 ready");
    }
    try (LDAPConnection c = group.connect(0)) {
      c.add(ReplicationGroup.user("after-the-restarts"));
    }
    for (int i = 0; i < 3; i++) {
      group.awaitEntry(i, "uid=after-the-restarts," + BASE);
    }
    TreeMap<String, String> last = content(0);
    assertThat(last).hasSize(restored.size() + 1);
    for (int i = 1; i < 3; i++) {
      awaitContent(i, last);
    }
    assertThat(changeNumberOf(0, "uid=after-the-restarts," + BASE)).isGreaterThan(afterRestore);
  }

  /** The root DSE's lastChangeNumber on server {@code i}. */
  private long lastChangeNumber(int i) throws LDAPException {
    try (LDAPConnection c = group.connect(i)) {
      return c.getEntry("", "lastChangeNumber").getAttributeValueAsLong("lastChangeNumber");
    }
  }

  /** Polls until server {@code i}'s changelog reaches change {@code number}, within a deadline. */
  private void readChangelogUpTo(int i, long number) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (lastChangeNumber(i) < number) {
      assertThat(System.nanoTime()).as("ds" + i + "'s changelog").isLessThan(deadline);
      Thread.sleep(50); // polling interval of a condition with a deadline
    }
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

  /** Polls until server {@code i}'s error log holds {@code text}, within a deadline. */
  private void awaitErrorLog(int i, String text) throws Exception {
    Path errors = group.instance(i).logs().resolve("errors");
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!Files.exists(errors) || !Files.readString(errors).contains(text)) {
      assertThat(System.nanoTime()).as("ds" + i + "'s error log: " + text).isLessThan(deadline);
      Thread.sleep(50); // polling interval of a condition with a deadline
    }
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
  }

  /** Polls until server {@code i} holds exactly {@code expected}, within a deadline. */
  private void awaitContent(int i, TreeMap<String, String> expected) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!content(i).equals(expected)) {
      assertThat(System.nanoTime())
          .as("ds" + i + " holds the expected entries")
          .isLessThan(deadline);
      Thread.sleep(50); // polling interval of a condition with a deadline
    }
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
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (true) {
        Entry task = c.getEntry(dn);
        String state = task.getAttributeValue("ds-task-state");
        if (!state.equals("RUNNING") && !state.equals("WAITING_ON_START_TIME")) {
          assertThat(state).as(task.toLDIFString()).isEqualTo("COMPLETED_SUCCESSFULLY");
          return task.getAttributeValue("ds-backup-id");
        }
        assertThat(System.nanoTime()).as("the backup task ended").isLessThan(deadline);
        Thread.sleep(50); // polling interval of a condition with a deadline
      }
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

  /**
   * Server {@code i}'s entries: normalized DN to the entry in LDIF, its attributes (with those the
   * server that prepared a write chose: entryUUID, timestamps, creator) and values sorted.
   */
  private TreeMap<String, String> content(int i) throws LDAPException {
    TreeMap<String, String> entries = new TreeMap<>();
    try (LDAPConnection c = group.connect(i)) {
      for (SearchResultEntry entry :
          c.search(
                  BASE,
                  SearchScope.SUB,
                  "(objectClass=*)",
                  "*",
                  "entryUUID",
                  "createTimestamp",
                  "modifyTimestamp",
                  "creatorsName")
              .getSearchEntries()) {
        StringBuilder ldif = new StringBuilder();
        entry.getAttributes().stream()
            .sorted((a, b) -> a.getName().compareToIgnoreCase(b.getName()))
            .forEach(
                a ->
                    Arrays.stream(a.getValues())
                        .sorted()
                        .forEach(
                            v -> ldif.append(a.getName()).append(": ").append(v).append('\n')));
        entries.put(entry.getParsedDN().toNormalizedString(), ldif.toString());
      }
    }
    return entries;
  }
}
