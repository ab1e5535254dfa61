package io.rockds.server.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.TestServer;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexType;
import io.rockds.storage.maintenance.IndexVerifier;
import io.rockds.storage.maintenance.VerifyReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Index changes through cn=config applied to the running server's storage, and the online rebuild
 * task that makes the indexes trusted again while clients keep writing.
 */
class RebuildTaskIT {
  private static final int PEOPLE = 4000;
  private static final String PEOPLE_DN = "ou=People," + TestServer.BASE;
  private static final String INDEXES = "cn=Index,ds-cfg-backend-id=userRoot,cn=Backends,cn=config";

  @TempDir Path dir;

  @Test
  void aNewIndexIsUntrustedALimitChangeIsNotAndATaskRebuildsThemBesideConcurrentWrites()
      throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    for (int i = 0; i < PEOPLE; i++) {
      entries.add(person(i, "Name" + (i % 7), "group" + (i % 50)));
    }
    try (TestServer server = TestServer.start(dir, entries);
        LDAPConnection root = server.rootConnection()) {
      EntryContainer container = server.server().backends().containerFor(new DN(TestServer.BASE));
      root.add(
          new Entry(
              "ds-cfg-attribute=description," + INDEXES,
              new Attribute("objectClass", "top", "ds-cfg-backend-index"),
              new Attribute("ds-cfg-attribute", "description"),
              new Attribute("ds-cfg-index-type", "equality")));
      root.modify(
          "ds-cfg-attribute=sn," + INDEXES,
          new Modification(ModificationType.REPLACE, "ds-cfg-index-entry-limit", "300"));
      AttributeIndex description = container.index("description", IndexType.EQUALITY);
      AttributeIndex sn = container.index("sn", IndexType.EQUALITY);
      assertThat(description).isNotNull();
      assertThat(description.isTrusted()).isFalse();
      assertThat(sn.isTrusted()).isTrue();
      assertThat(sn.rebuildWouldTighten()).isTrue();
      assertThat(sn.entryLimit().limit()).isEqualTo(300);
      assertThat(trace(root, "(description=group7)"))
          .doesNotContain("\"index\":\"description.caseIgnoreMatch\"")
          .contains("\"untrusted\":\"description.caseIgnoreMatch\"");

      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService writers = Executors.newFixedThreadPool(2);
      List<Future<Integer>> writes = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        int writer = w;
        writes.add(writers.submit(() -> write(server, writer, stop)));
      }
      String task = "ds-task-id=rebuild-1,cn=Scheduled Tasks,cn=tasks";
      root.add(
          new Entry(
              task,
              new Attribute("objectClass", "top", "ds-task", "ds-task-rebuild"),
              new Attribute("ds-task-id", "rebuild-1"),
              new Attribute("ds-task-rebuild-base-dn", TestServer.BASE),
              new Attribute("ds-task-rebuild-index", "description", "sn")));
      Entry done = awaitEnd(root, task);
      stop.set(true);
      for (Future<Integer> f : writes) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isPositive();
      }
      writers.shutdown();

      assertThat(done.getAttributeValue("ds-task-state")).isEqualTo("COMPLETED_SUCCESSFULLY");
      assertThat(done.getAttributeValue("ds-task-completion-time")).isNotNull();
      assertThat(String.join("\n", done.getAttributeValues("ds-task-log-message")))
          .containsPattern("Rebuilt .* from 4003 entries")
          .contains("description.caseIgnoreMatch")
          .contains("sn.caseIgnoreMatch")
          .contains("sn.caseIgnoreSubstringsMatch:6");
      VerifyReport report = new IndexVerifier(container).verifyAll();
      assertThat(report.mismatches()).isEmpty();
      assertThat(description.isTrusted()).isTrue();
      assertThat(container.indexes()).allMatch(AttributeIndex::isTrusted);
      assertThat(sn.rebuildWouldTighten()).isFalse();
      assertThat(trace(root, "(description=group7)"))
          .contains("\"index\":\"description.caseIgnoreMatch\"")
          .doesNotContain("untrusted");
      SearchResult tasks =
          root.search("cn=Scheduled Tasks,cn=tasks", SearchScope.ONE, "(ds-task-state=*)");
      assertThat(tasks.getSearchEntries()).extracting(Entry::getDN).containsExactly(task);
    }
  }

  @Test
  void onlyRootOrTheLdifImportPrivilegeMaySchedule() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    Entry user = person(1, "Plain", "none");
    user.addAttribute("userPassword", "user-secret");
    entries.add(user);
    try (TestServer server = TestServer.start(dir, entries);
        LDAPConnection plain =
            new LDAPConnection("127.0.0.1", server.ldapPort(), user.getDN(), "user-secret");
        LDAPConnection root = server.rootConnection()) {
      Entry task =
          new Entry(
              "ds-task-id=t,cn=Scheduled Tasks,cn=tasks",
              new Attribute("objectClass", "top", "ds-task", "ds-task-rebuild"),
              new Attribute("ds-task-rebuild-base-dn", TestServer.BASE),
              new Attribute("ds-task-rebuild-index", "sn"));
      assertThatThrownBy(() -> plain.add(task))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      Entry unknownBase = task.duplicate();
      unknownBase.setAttribute("ds-task-rebuild-base-dn", "dc=nowhere");
      assertThatThrownBy(() -> root.add(unknownBase))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
      root.add(task);
      assertThat(awaitEnd(root, task.getDN()).getAttributeValue("ds-task-state"))
          .isEqualTo("COMPLETED_SUCCESSFULLY");
      assertThatThrownBy(() -> root.add(task))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.ENTRY_ALREADY_EXISTS);
    }
  }

  /** Adds, modifies (sn and description) and deletes people until stopped or 20,000 operations. */
  private static int write(TestServer server, int writer, AtomicBoolean stop) throws LDAPException {
    int ops = 0;
    try (LDAPConnection c = server.rootConnection()) {
      for (int i = 0; !stop.get() && i < 20_000; i++, ops++) {
        int n = (i * 2 + writer) % PEOPLE;
        switch (i % 3) {
          case 0 ->
              c.add(person(100_000 + writer * 100_000 + i, "Name" + (i % 5), "group" + (i % 9)));
          case 1 ->
              c.modify(
                  "uid=user." + n + "," + PEOPLE_DN,
                  new Modification(ModificationType.REPLACE, "sn", "Moved" + (i % 3)),
                  new Modification(ModificationType.REPLACE, "description", "group" + (i % 11)));
          default -> c.delete("uid=user." + (100_000 + writer * 100_000 + i - 2) + "," + PEOPLE_DN);
        }
      }
    }
    return ops;
  }

  private static Entry awaitEnd(LDAPConnection root, String task) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      Entry entry = root.getEntry(task);
      String state = entry.getAttributeValue("ds-task-state");
      if (!state.equals("RUNNING") && !state.equals("WAITING_ON_START_TIME")) {
        return entry;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("task " + task + " still running after 120 s");
  }

  private static String trace(LDAPConnection root, String filter) throws LDAPException {
    return root.search(TestServer.BASE, SearchScope.SUB, filter, "debugsearchindex")
        .getSearchEntries()
        .get(0)
        .getAttributeValue("debugsearchindex");
  }

  private static Entry person(int i, String sn, String description) {
    return new Entry(
        "uid=user." + i + "," + PEOPLE_DN,
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("uid", "user." + i),
        new Attribute("cn", "User " + i),
        new Attribute("sn", sn),
        new Attribute("description", description));
  }
}
