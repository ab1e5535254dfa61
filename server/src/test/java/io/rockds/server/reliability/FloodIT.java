package io.rockds.server.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.asn1.ASN1Boolean;
import com.unboundid.asn1.ASN1Enumerated;
import com.unboundid.asn1.ASN1Integer;
import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.asn1.ASN1Sequence;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultListener;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.DirectoryServer;
import io.rockds.server.TestServer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Floods and slow clients against an in-process server holding many entries:
 *
 * <ul>
 *   <li>5,000 concurrent connections (fewer if {@code ulimit -n} cannot hold both ends), half of
 *       them slowloris (a request's first bytes, then silence), all released when closed;
 *   <li>connections opened and dropped at a high rate (some with a reset, some mid-request): no
 *       descriptor is leaked;
 *   <li>a client that asks for every entry and never reads: another client keeps getting answers
 *       within a bounded latency and the heap stays bounded (the server holds one worker and
 *       Netty's high-water mark, not the result set).
 * </ul>
 *
 * Short mode: 20,000 entries of ~2 KB. Long mode: {@code -Dreliability.floodEntries=100000} {@code
 * -Dreliability.connections=5000} {@code -Dreliability.churn=100000}.
 */
class FloodIT {
  private static final int ENTRIES = Integer.getInteger("reliability.floodEntries", 20_000);
  private static final int VALUE_BYTES = 2_000;

  /** A latency bound far above any healthy answer, far below "stalled". */
  private static final long LATENCY_BOUND_MILLIS = 10_000;

  @TempDir static Path dir;
  private static DirectoryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        DirectoryServer.start(
            PopulatedInstance.create(dir.resolve("instance"), ENTRIES, VALUE_BYTES));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void thousandsOfConcurrentConnectionsIncludingSlowlorisAreServedAndReleased() throws Exception {
    long before = ProcessResources.openFileDescriptors();
    // Each connection costs two descriptors here (client and server end); keep 500 spare.
    long room = (ProcessResources.fileDescriptorLimit() - before - 500) / 2;
    int count = (int) Math.min(Integer.getInteger("reliability.connections", 5_000), room);
    System.out.printf(
        "flood: %d concurrent connections (ulimit -n %d)%n",
        count, ProcessResources.fileDescriptorLimit());
    byte[] rootDse = rootDseSearch();
    List<Socket> sockets = new ArrayList<>(count);
    try {
      for (int i = 0; i < count; i++) {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", server.ldapPort()), 10_000);
        s.setSoTimeout(30_000);
        s.getOutputStream()
            .write(i % 2 == 0 ? rootDse : new byte[] {rootDse[0], rootDse[1], rootDse[2]});
        sockets.add(s);
      }
      assertAnotherClientIsAnsweredPromptly();
      for (int i = 0; i < count; i += 2) {
        assertThat(sockets.get(i).getInputStream().read())
            .as("connection %d answered", i)
            .isEqualTo(0x30);
      }
    } finally {
      for (Socket s : sockets) {
        s.close();
      }
    }
    assertThat(ProcessResources.awaitFileDescriptorsAtMost(before + 20, 30_000))
        .isLessThanOrEqualTo(before + 20);
    assertAnotherClientIsAnsweredPromptly();
  }

  @Test
  void connectionsOpenedAndDroppedAtAHighRateLeakNothing() throws Exception {
    long before = ProcessResources.openFileDescriptors();
    int total = Integer.getInteger("reliability.churn", 8_000);
    int threads = 4;
    byte[] rootDse = rootDseSearch();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  int opened = 0;
                  for (int i = 0; i < total / threads; i++) {
                    try (Socket s = new Socket("127.0.0.1", server.ldapPort())) {
                      switch (i % 4) {
                        case 0 -> s.setSoLinger(true, 0); // reset instead of a clean close
                        case 1 ->
                            s.getOutputStream()
                                .write(rootDse, 0, rootDse.length / 2); // dropped mid-request
                        case 2 ->
                            s.getOutputStream().write(rootDse); // dropped before the answer is read
                        default -> {} // connect and leave
                      }
                      opened++;
                    }
                  }
                  return opened;
                }));
      }
      int opened = 0;
      for (Future<Integer> f : done) {
        opened += f.get(5, TimeUnit.MINUTES);
      }
      assertThat(opened).isEqualTo(total / threads * threads);
    } finally {
      pool.shutdownNow();
    }
    assertThat(ProcessResources.awaitFileDescriptorsAtMost(before + 20, 30_000))
        .isLessThanOrEqualTo(before + 20);
    assertAnotherClientIsAnsweredPromptly();
  }

  @Test
  void aClientThatNeverReadsAHugeSearchStallsNobodyAndHoldsBoundedMemory() throws Exception {
    // A full read first, so the entry cache is as full before the slow client as during it.
    try (LDAPConnection c =
        new LDAPConnection(
            "127.0.0.1", server.ldapPort(), TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
      c.search(
          new SearchRequest(
              new SearchResultListener() {
                @Override
                public void searchEntryReturned(SearchResultEntry entry) {}

                @Override
                public void searchReferenceReturned(SearchResultReference reference) {}
              },
              TestServer.BASE,
              SearchScope.SUB,
              "(objectClass=*)"));
    }
    long heapBefore = ProcessResources.heapAfterGc();
    long responseBytes = (long) ENTRIES * VALUE_BYTES;
    try (Socket slow = new Socket()) {
      slow.setReceiveBufferSize(4096);
      slow.connect(new InetSocketAddress("127.0.0.1", server.ldapPort()));
      slow.getOutputStream()
          .write(
              RawLdap.message(
                  1,
                  new ASN1Sequence(
                      (byte) 0x60,
                      new ASN1Integer(3),
                      new ASN1OctetString(TestServer.ROOT_DN),
                      new ASN1OctetString((byte) 0x80, TestServer.ROOT_PASSWORD))));
      slow.getOutputStream()
          .write(
              RawLdap.message(
                  2,
                  new ASN1Sequence(
                      (byte) 0x63,
                      new ASN1OctetString(TestServer.BASE),
                      new ASN1Enumerated(2),
                      new ASN1Enumerated(0),
                      new ASN1Integer(0),
                      new ASN1Integer(0),
                      new ASN1Boolean(false),
                      new ASN1OctetString((byte) 0x87, "objectClass"),
                      new ASN1Sequence())));
      ProcessResources.awaitServerStalledOn(server.ldapPort(), slow.getLocalPort(), 60_000);
      for (int i = 0; i < 20; i++) {
        assertAnotherClientIsAnsweredPromptly();
      }
      long heapDuring = ProcessResources.heapAfterGc();
      System.out.printf(
          "slow reader: %d entries (%d MB) requested, heap %d MB before, %d MB while stalled%n",
          ENTRIES, responseBytes >> 20, heapBefore >> 20, heapDuring >> 20);
      assertThat(heapDuring - heapBefore)
          .as("heap growth while a %d MB result is unread", responseBytes >> 20)
          .isLessThan(Math.min(32L << 20, responseBytes / 2));
    }
    assertAnotherClientIsAnsweredPromptly();
  }

  private static void assertAnotherClientIsAnsweredPromptly() throws Exception {
    long start = System.nanoTime();
    try (LDAPConnection c =
        new LDAPConnection(
            "127.0.0.1", server.ldapPort(), TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
      c.getConnectionOptions().setResponseTimeoutMillis(LATENCY_BOUND_MILLIS);
      assertThat(
              c.search(
                      "uid=user.7,ou=People," + TestServer.BASE,
                      SearchScope.BASE,
                      "(objectClass=*)",
                      "uid")
                  .getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
    }
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
        .isLessThan(LATENCY_BOUND_MILLIS);
  }

  /** An anonymous base search of the root DSE: small, and answered whatever the access rules. */
  private static byte[] rootDseSearch() {
    return RawLdap.message(
        1,
        new ASN1Sequence(
            (byte) 0x63,
            new ASN1OctetString(""),
            new ASN1Enumerated(0),
            new ASN1Enumerated(0),
            new ASN1Integer(0),
            new ASN1Integer(0),
            new ASN1Boolean(false),
            new ASN1OctetString((byte) 0x87, "objectClass"),
            new ASN1Sequence()));
  }
}
