package io.rockds.server.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.layout.Instance;
import io.rockds.server.TestServer;
import io.rockds.server.reliability.AcknowledgedWrites.Snapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash recovery: the server runs as a child process; several connections add, modify, delete and
 * rename their own entries while each records what was acknowledged; the server is killed with
 * SIGKILL at a random moment; then, after every crash:
 *
 * <ol>
 *   <li>the backend is opened offline and the index verifier must find no mismatch;
 *   <li>the server restarts and every acknowledged write is there, with all its values;
 *   <li>the one unacknowledged operation per connection is wholly applied or wholly absent (a
 *       rename moves the entry or does not; a modify changes every value or none);
 *   <li>equality searches on the indexed {@code sn} and {@code mail} find each entry exactly;
 *   <li>{@code cn=changelog} holds a record of at least every acknowledged write (each is recorded
 *       by the batch that applied it) and the add of every entry there is.
 * </ol>
 *
 * Writes are synced (the default), which is what is under test.
 *
 * <p>Short mode: 5 cycles. Long mode: {@code -Dreliability.cycles=100}; a failing run prints its
 * seed, replayed with {@code -Dreliability.seed=N}.
 */
class CrashRecoveryIT {
  private static final int WRITERS = 4;
  private static final int MAIL_VALUES = 5;
  private static final List<String> CHECKED = List.of("uid", "cn", "sn", "mail");
  private static final String PEOPLE = "ou=People," + TestServer.BASE;

  @TempDir Path dir;

  @Test
  void everyAcknowledgedWriteSurvivesKillNineAndNothingIsHalfApplied() throws Exception {
    int cycles = Integer.getInteger("reliability.cycles", 5);
    long seed = Long.getLong("reliability.seed", System.nanoTime());
    Random random = new Random(seed);
    Instance instance = ChildServer.create(dir.resolve("instance"), TestServer.baseEntries());
    List<AcknowledgedWrites> models = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      models.add(new AcknowledgedWrites());
    }
    long[] generation = new long[WRITERS];
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      for (int cycle = 0; cycle <= cycles; cycle++) {
        String context = "seed " + seed + ", cycle " + cycle;
        try (ChildServer server = ChildServer.start(instance)) {
          try (LDAPConnection c = server.rootConnection()) {
            checkAgainstModels(c, models, context);
          }
          if (cycle == cycles) {
            server.stop();
            break;
          }
          AtomicBoolean stop = new AtomicBoolean();
          List<Future<String>> writers = new ArrayList<>();
          for (int w = 0; w < WRITERS; w++) {
            Writer writer =
                new Writer(
                    w,
                    server.ldapPort(),
                    models.get(w),
                    new Random(random.nextLong()),
                    generation,
                    stop);
            writers.add(pool.submit(writer::run));
          }
          Thread.sleep(300 + random.nextInt(1200));
          server.kill();
          stop.set(true);
          for (Future<String> writer : writers) {
            assertThat(writer.get(60, TimeUnit.SECONDS)).as(context).isEmpty();
          }
        }
        assertThat(OfflineVerification.mismatches(instance))
            .as("index verifier after the crash, " + context)
            .isEmpty();
      }
    } finally {
      pool.shutdownNow();
    }
    long acknowledged = models.stream().mapToLong(AcknowledgedWrites::acknowledgedCount).sum();
    System.out.printf(
        "crash recovery: %d cycles, %d acknowledged writes checked, seed %d%n",
        cycles, acknowledged, seed);
    assertThat(acknowledged).as("acknowledged operations over all cycles").isGreaterThan(0);
  }

  /** Every model's check against what the server holds, then the models adopt it. */
  private static void checkAgainstModels(
      LDAPConnection c, List<AcknowledgedWrites> models, String context) throws LDAPException {
    Map<String, Snapshot> actual = readAll(c);
    for (AcknowledgedWrites model : models) {
      assertThat(model.check(actual)).as(context).isEmpty();
      model.settle(actual);
    }
    assertThat(actual.keySet())
        .as("entries nobody wrote, " + context)
        .allMatch(dn -> models.stream().anyMatch(m -> m.touched().contains(dn)));
    assertIndexedSearchesAgree(c, actual, context);
    assertChangelogWhole(c, models, context);
  }

  /** The changelog records every acknowledged write, and the add of every entry. */
  private static void assertChangelogWhole(
      LDAPConnection c, List<AcknowledgedWrites> models, String context) throws LDAPException {
    long changes = 0;
    Set<String> added = new HashSet<>();
    for (SearchResultEntry change :
        c.search("cn=changelog", SearchScope.ONE, "(changeNumber>=0)").getSearchEntries()) {
      changes++;
      if ("add".equals(change.getAttributeValue("changeType"))) {
        added.add(change.getAttributeValue("targetEntryUUID"));
      }
    }
    assertThat(changes)
        .as("changelog records, " + context)
        .isGreaterThanOrEqualTo(
            models.stream().mapToLong(AcknowledgedWrites::acknowledgedCount).sum());
    for (SearchResultEntry entry :
        c.search(PEOPLE, SearchScope.ONE, "(objectClass=*)", "entryUUID").getSearchEntries()) {
      assertThat(added)
          .as("the add of " + entry.getDN() + " in the changelog, " + context)
          .contains(entry.getAttributeValue("entryUUID"));
    }
  }

  private static Map<String, Snapshot> readAll(LDAPConnection c) throws LDAPException {
    Map<String, Snapshot> actual = new HashMap<>();
    SearchResult all =
        c.search(PEOPLE, SearchScope.ONE, "(objectClass=*)", CHECKED.toArray(new String[0]));
    for (SearchResultEntry e : all.getSearchEntries()) {
      actual.put(AcknowledgedWrites.key(e.getDN()), Snapshot.of(e, CHECKED));
    }
    return actual;
  }

  private static void assertIndexedSearchesAgree(
      LDAPConnection c, Map<String, Snapshot> actual, String context) throws LDAPException {
    for (Map.Entry<String, Snapshot> e : actual.entrySet()) {
      String sn = e.getValue().attributes().get("sn").iterator().next();
      String mail = e.getValue().attributes().get("mail").iterator().next();
      for (Filter filter :
          List.of(
              Filter.createEqualityFilter("sn", sn), Filter.createEqualityFilter("mail", mail))) {
        SearchResult found = c.search(PEOPLE, SearchScope.ONE, filter, "1.1");
        assertThat(found.getSearchEntries())
            .as(filter + ", " + context)
            .extracting(r -> AcknowledgedWrites.key(r.getDN()))
            .containsExactly(e.getKey());
      }
    }
  }

  /** One connection writing its own entries until the server goes away. */
  private static final class Writer {
    private final int id;
    private final int port;
    private final AcknowledgedWrites model;
    private final Random random;
    private final long[] generation;
    private final AtomicBoolean stop;

    Writer(
        int id,
        int port,
        AcknowledgedWrites model,
        Random random,
        long[] generation,
        AtomicBoolean stop) {
      this.id = id;
      this.port = port;
      this.model = model;
      this.random = random;
      this.generation = generation;
      this.stop = stop;
    }

    /** Empty when every failure was the server dying; otherwise the unexpected result. */
    String run() {
      try (LDAPConnection c =
          new LDAPConnection("127.0.0.1", port, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
        while (!stop.get()) {
          writeOnce(c);
        }
        return "";
      } catch (LDAPException e) {
        return e.getResultCode().isConnectionUsable() && !stop.get()
            ? "writer " + id + ": " + e
            : "";
      }
    }

    private void writeOnce(LDAPConnection c) throws LDAPException {
      List<String> dns = model.dns();
      int op = dns.size() < 3 ? 0 : random.nextInt(4);
      long gen = ++generation[id];
      String tag = "w" + id + "-g" + gen;
      if (op == 0) {
        String dn = "uid=" + tag + "," + PEOPLE;
        Entry entry = entry(dn, tag, tag);
        model.sending(Map.of(AcknowledgedWrites.key(dn), Snapshot.of(entry, CHECKED)));
        c.add(entry);
      } else {
        String dn = dns.get(random.nextInt(dns.size()));
        Snapshot current = model.stateOf(dn);
        String uid = current.attributes().get("uid").iterator().next();
        if (op == 1) {
          Entry after = entry(dn, uid, tag);
          model.sending(Map.of(dn, Snapshot.of(after, CHECKED)));
          c.modify(
              dn,
              new Modification(ModificationType.REPLACE, "sn", tag),
              new Modification(ModificationType.REPLACE, "cn", "cn " + tag),
              new Modification(ModificationType.REPLACE, "mail", mails(tag)));
        } else if (op == 2) {
          Map<String, Snapshot> after = new HashMap<>();
          after.put(dn, null);
          model.sending(after);
          c.delete(dn);
        } else {
          String newUid = "w" + id + "-r" + gen;
          String newDn = AcknowledgedWrites.key("uid=" + newUid + "," + PEOPLE);
          Map<String, Snapshot> after = new HashMap<>();
          after.put(dn, null);
          Map<String, Set<String>> moved = new TreeMap<>(current.attributes());
          moved.put("uid", Set.of(newUid));
          after.put(newDn, new Snapshot(moved));
          model.sending(after);
          c.modifyDN(dn, "uid=" + newUid, true);
        }
      }
      model.acknowledged();
    }

    private static Entry entry(String dn, String uid, String tag) {
      return new Entry(
          dn,
          new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
          new Attribute("uid", uid),
          new Attribute("cn", "cn " + tag),
          new Attribute("sn", tag),
          new Attribute("mail", mails(tag)));
    }

    private static String[] mails(String tag) {
      String[] mails = new String[MAIL_VALUES];
      for (int i = 0; i < MAIL_VALUES; i++) {
        mails[i] = tag + ".v" + i + "@example.com";
      }
      return mails;
    }
  }
}
