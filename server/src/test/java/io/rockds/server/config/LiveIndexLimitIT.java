package io.rockds.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.TestServer;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexType;
import io.rockds.storage.maintenance.IndexRebuilder;
import io.rockds.storage.maintenance.IndexVerifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index-entry-limit changed on a running server keeps the index in service, as OpenDJ does:
 * searches keep using it and answer correctly, the new limit applies to reads and writes at once,
 * and cn=monitor says a rebuild would tighten the index until one runs.
 */
class LiveIndexLimitIT {
  private static final String PEOPLE_DN = "ou=People," + TestServer.BASE;
  private static final String READER_DN = "uid=reader," + TestServer.BASE;
  private static final String SN_INDEX =
      "ds-cfg-attribute=sn,cn=Index,ds-cfg-backend-id=userRoot,cn=Backends,cn=config";
  private static final int PEOPLE = 700;

  @TempDir Path dir;

  @Test
  void aChangedLimitKeepsTheIndexAnsweringAndAppliesAtOnce() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(
        new Entry(
            READER_DN,
            new Attribute("objectClass", "top", "person", "inetOrgPerson"),
            new Attribute("uid", "reader"),
            new Attribute("cn", "Reader"),
            new Attribute("sn", "Reader"),
            new Attribute("userPassword", "reader-secret")));
    for (int i = 0; i < PEOPLE; i++) {
      entries.add(person(i, "Name" + (i % 7)));
    }
    try (TestServer server = TestServer.start(dir, entries);
        LDAPConnection root = server.rootConnection();
        LDAPConnection reader =
            new LDAPConnection("127.0.0.1", server.ldapPort(), READER_DN, "reader-secret")) {
      EntryContainer container = server.server().backends().containerFor(new DN(TestServer.BASE));
      AttributeIndex sn = container.index("sn", IndexType.EQUALITY);
      assertThat(count(reader, "(sn=Name1)")).isEqualTo(100);

      // Lowered below the 100 entries of each surname: the keys read as "all entries" at once.
      root.modify(
          SN_INDEX, new Modification(ModificationType.REPLACE, "ds-cfg-index-entry-limit", "50"));
      assertThat(sn.isTrusted()).isTrue();
      assertThat(count(root, "(sn=Name1)")).isEqualTo(100);
      assertThat(trace(root, "(sn=Name1)"))
          .contains("sn.caseIgnoreMatch")
          .doesNotContain("untrusted");
      assertThatThrownBy(() -> reader.search(TestServer.BASE, SearchScope.SUB, "(sn=Name1)"))
          .isInstanceOfSatisfying(
              LDAPSearchException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
      // A key within the new limit is still indexed for everyone.
      for (int i = 0; i < 10; i++) {
        root.add(person(10_000 + i, "Rare"));
      }
      assertThat(count(reader, "(sn=Rare)")).isEqualTo(10);
      // A write applies the new limit: the key is stored over it, with its exact count.
      root.add(person(20_000, "Name1"));
      byte[] name1 = "name1".getBytes(StandardCharsets.UTF_8);
      assertThat(container.state().overLimitCount(sn.name(), name1)).isEqualTo(101);
      assertThat(monitor(root).getAttributeValues("ds-index-rebuild-would-tighten"))
          .contains(sn.rawName());
      assertThat(new IndexVerifier(container).verifyIndexes(List.of(sn)).mismatches()).isEmpty();

      // Raised again: the key stored over the limit stays "all entries" (a correct superset) until
      // a rebuild; a key never rewritten lists its IDs and is indexed again at once.
      root.modify(
          SN_INDEX, new Modification(ModificationType.REPLACE, "ds-cfg-index-entry-limit", "4000"));
      assertThat(count(reader, "(sn=Name2)")).isEqualTo(100);
      assertThat(count(root, "(sn=Name1)")).isEqualTo(101);
      assertThatThrownBy(() -> reader.search(TestServer.BASE, SearchScope.SUB, "(sn=Name1)"))
          .isInstanceOf(LDAPSearchException.class);
      // Back to the limit it was built with: the flag is down, and the key past it is a recoverable
      // over-limit key, which --rebuildDegraded finds by its count.
      assertThat(sn.rebuildWouldTighten()).isFalse();
      assertThat(new IndexRebuilder(container).degradedIndexes()).contains(sn);

      String task = "ds-task-id=tighten,cn=Scheduled Tasks,cn=tasks";
      root.add(
          new Entry(
              task,
              new Attribute("objectClass", "top", "ds-task", "ds-task-rebuild"),
              new Attribute("ds-task-id", "tighten"),
              new Attribute("ds-task-rebuild-base-dn", TestServer.BASE),
              new Attribute("ds-task-rebuild-index", "rebuildDegraded")));
      assertThat(awaitEnd(root, task)).isEqualTo("COMPLETED_SUCCESSFULLY");
      assertThat(count(reader, "(sn=Name1)")).isEqualTo(101);
      assertThat(monitor(root).hasAttribute("ds-index-rebuild-would-tighten")).isFalse();
    }
  }

  private static Entry person(int i, String sn) {
    return new Entry(
        "uid=user." + i + "," + PEOPLE_DN,
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("uid", "user." + i),
        new Attribute("cn", "User " + i),
        new Attribute("sn", sn));
  }

  /**
   * Entries matching {@code filter} in the whole suffix: only an index can narrow such a search.
   */
  private static int count(LDAPConnection connection, String filter) throws LDAPException {
    return connection.search(TestServer.BASE, SearchScope.SUB, filter, "1.1").getEntryCount();
  }

  private static String trace(LDAPConnection root, String filter) throws LDAPException {
    return root.search(TestServer.BASE, SearchScope.SUB, filter, "debugsearchindex")
        .getSearchEntries()
        .get(0)
        .getAttributeValue("debugsearchindex");
  }

  private static Entry monitor(LDAPConnection root) throws LDAPException {
    return root.getEntry("cn=userRoot Backend,cn=monitor", "*");
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
