package io.rockds.server.hardening;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.protocol.LdapServer;
import io.rockds.server.DirectoryServer;
import io.rockds.server.TestServer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping the server while it works (issue 18, item 8): during an unindexed search that holds a
 * dn2id iterator open (its client does not read), an online index rebuild and a burst of writes.
 * Each time the shutdown must cancel what runs, end every operation before RocksDB closes, say so
 * ({@link DirectoryServer#closedCleanly()}, {@code logs/server.stopped}), and the restarted server
 * must hold every entry, and every acknowledged write, intact. The grace period is 0 so that the
 * shutdown always has running work to cancel.
 */
class ShutdownUnderLoadIT {
  private static final int PEOPLE = 2_000;
  private static final String PEOPLE_DN = "ou=People," + TestServer.BASE;

  @TempDir static Path dir;
  private static TestServer server;

  /** Entries the write burst added, acknowledged: every later restart must still hold them. */
  private static final Set<String> acknowledged = ConcurrentHashMap.newKeySet();

  /** One instance for all tests (setting it up is the slow part); each test ends with a restart. */
  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    String filler = "x".repeat(4000);
    for (int i = 0; i < PEOPLE; i++) {
      entries.add(
          new Entry(
              "dn: uid=u" + i + "," + PEOPLE_DN,
              "objectClass: inetOrgPerson",
              "uid: u" + i,
              "cn: User " + i,
              "sn: S" + (i % 100),
              "description: " + filler));
    }
    server = TestServer.start(dir, entries);
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(
          "cn=config",
          new Modification(ModificationType.REPLACE, "ds-cfg-shutdown-grace-period", "0"));
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void stopsDuringAnUnindexedSearchWhoseClientDoesNotRead() throws Exception {
    try (Socket stalled = new Socket()) {
      stalled.setReceiveBufferSize(4096);
      stalled.connect(new InetSocketAddress("127.0.0.1", server.ldapPort()));
      RawConnection client = new RawConnection(stalled);
      client.send(
          new LDAPMessage(
              1,
              new com.unboundid.ldap.protocol.BindRequestProtocolOp(
                  TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)));
      assertThat(client.read().getBindResponseProtocolOp().getResultCode()).isZero();
      client.send(
          new LDAPMessage(
              2,
              new SearchRequestProtocolOp(
                  TestServer.BASE,
                  SearchScope.SUB,
                  DereferencePolicy.NEVER,
                  0,
                  0,
                  false,
                  Filter.createPresenceFilter("description"),
                  List.of())));
      LdapServer listener = server.server().listeners().get(0);
      awaitTrue(
          "the search to block on its client",
          () ->
              listener.outstandingRequests() == 1
                  && listener.pendingOutboundBytes() > 0
                  && !stalled.isClosed());
      stopCleanly();
    }
    assertAllEntriesIntact();
  }

  @Test
  void stopsDuringAnOnlineRebuild() throws Exception {
    String task = "ds-task-id=rebuild-at-shutdown,cn=Scheduled Tasks,cn=tasks";
    try (LDAPConnection root = server.rootConnection()) {
      root.add(
          new Entry(
              task,
              new Attribute("objectClass", "top", "ds-task", "ds-task-rebuild"),
              new Attribute("ds-task-id", "rebuild-at-shutdown"),
              new Attribute("ds-task-rebuild-base-dn", TestServer.BASE),
              new Attribute("ds-task-rebuild-index", "rebuildAll")));
      awaitTrue(
          "the rebuild to start",
          () -> {
            try {
              String state =
                  root.getEntry(task, "ds-task-state").getAttributeValue("ds-task-state");
              return !"WAITING".equals(state);
            } catch (LDAPException e) {
              return false;
            }
          });
    }
    stopCleanly();
    assertAllEntriesIntact();
  }

  @Test
  void stopsDuringAWriteBurstLosingNoAcknowledgedWrite() throws Exception {
    int writers = 4;
    CountDownLatch someWritten = new CountDownLatch(50);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      for (int w = 0; w < writers; w++) {
        int writer = w;
        pool.execute(
            () -> {
              try (LDAPConnection root = server.rootConnection()) {
                for (int i = 0; i < 100_000; i++) {
                  String dn = "uid=w" + writer + "-" + i + "," + PEOPLE_DN;
                  root.add(
                      new Entry(
                          dn,
                          new Attribute("objectClass", "account"),
                          new Attribute("uid", "w" + writer + "-" + i)));
                  acknowledged.add(dn);
                  someWritten.countDown();
                }
              } catch (LDAPException stoppedUnderneath) {
                // The shutdown ends the burst: the last write may or may not have been
                // acknowledged.
              }
            });
      }
      assertThat(someWritten.await(60, TimeUnit.SECONDS)).isTrue();
      stopCleanly();
    } finally {
      pool.shutdown();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
    assertAllEntriesIntact();
  }

  private static void stopCleanly() throws Exception {
    DirectoryServer running = server.server();
    running.close();
    assertThat(running.closedCleanly()).isTrue();
    assertThat(Files.readString(server.instance().stoppedFile(), StandardCharsets.UTF_8).strip())
        .isEqualTo(DirectoryServer.STOPPED_CLEANLY);
    assertThat(Files.readString(server.instance().logs().resolve("errors"), StandardCharsets.UTF_8))
        .contains("RockDS stopped")
        .doesNotContain("uncleanly");
  }

  private static void assertAllEntriesIntact() throws Exception {
    Set<String> written = Set.copyOf(acknowledged);
    server.restart();
    try (LDAPConnection root = server.rootConnection()) {
      for (int i = 0; i < PEOPLE; i += 97) {
        Entry person = root.getEntry("uid=u" + i + "," + PEOPLE_DN);
        assertThat(person).isNotNull();
        assertThat(person.getAttributeValue("description")).hasSize(4000);
      }
      for (String dn : written) {
        assertThat(root.getEntry(dn)).as(dn).isNotNull();
      }
      long count =
          root.search(PEOPLE_DN, SearchScope.ONE, "(objectClass=*)", "1.1").getEntryCount();
      assertThat(count)
          .isBetween((long) PEOPLE + written.size(), (long) PEOPLE + written.size() + 4);
    }
  }

  /** Polls {@code condition} until it holds, failing after 60 s. */
  private static void awaitTrue(String what, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
      Thread.sleep(5);
    }
  }
}
