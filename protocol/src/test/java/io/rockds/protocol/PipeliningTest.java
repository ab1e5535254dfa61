package io.rockds.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Many requests outstanding on one connection: message IDs, abandon and backpressure. */
class PipeliningTest {
  private RunningServer running;

  @AfterEach
  void stop() throws Exception {
    if (running != null) {
      running.close();
    }
  }

  @Test
  void responsesCarryTheMessageIdsOfTheirRequests() throws Exception {
    running = new RunningServer(RunningServer.defaults());
    Map<Integer, String> entryByMessageId = new ConcurrentHashMap<>();
    Map<Integer, SearchResult> doneByMessageId = new ConcurrentHashMap<>();
    try (LDAPConnection connection = new LDAPConnection("127.0.0.1", running.port())) {
      List<AsyncRequestID> ids = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        String base = "cn=request-" + i;
        AsyncSearchResultListener listener =
            new AsyncSearchResultListener() {
              private static final long serialVersionUID = 1L;

              @Override
              public void searchEntryReturned(SearchResultEntry entry) {
                entryByMessageId.put(entry.getMessageID(), entry.getDN());
              }

              @Override
              public void searchReferenceReturned(SearchResultReference reference) {}

              @Override
              public void searchResultReceived(AsyncRequestID requestId, SearchResult result) {
                doneByMessageId.put(requestId.getMessageID(), result);
              }
            };
        ids.add(
            connection.asyncSearch(
                new SearchRequest(listener, base, SearchScope.BASE, "(objectClass=*)")));
      }
      for (int i = 0; i < ids.size(); i++) {
        AsyncRequestID id = ids.get(i);
        com.unboundid.ldap.sdk.LDAPResult result = id.get(10, TimeUnit.SECONDS);
        assertThat(result.getResultCode().intValue()).isZero();
        assertThat(entryByMessageId.get(id.getMessageID())).isEqualTo("cn=request-" + i);
      }
    }
  }

  @Test
  void abandonStopsARunningSearch() throws Exception {
    running = new RunningServer(RunningServer.defaults());
    try (RawClient client = new RawClient(running.port())) {
      client.write(Pdus.search(5, SampleDirectory.WAIT_BASE));
      assertThat(running.directory.waitingSearchStarted.await(5, TimeUnit.SECONDS)).isTrue();
      client.write(
          new LDAPMessage(6, new com.unboundid.ldap.protocol.AbandonRequestProtocolOp(5))
              .encode()
              .encode());
      assertThat(running.directory.waitingSearchStopped.await(5, TimeUnit.SECONDS)).isTrue();
      // The connection goes on: the next request is answered.
      client.write(Pdus.search(7, "cn=after"));
      assertThat(client.read().getMessageID()).isEqualTo(7);
    }
  }

  @Test
  void unbindClosesAndStopsWhatRuns() throws Exception {
    running = new RunningServer(RunningServer.defaults());
    try (RawClient client = new RawClient(running.port())) {
      client.write(Pdus.search(5, SampleDirectory.WAIT_BASE));
      assertThat(running.directory.waitingSearchStarted.await(5, TimeUnit.SECONDS)).isTrue();
      client.write(
          new LDAPMessage(6, new com.unboundid.ldap.protocol.UnbindRequestProtocolOp())
              .encode()
              .encode());
      client.expectClosed();
      assertThat(running.directory.waitingSearchStopped.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  /**
   * 100,000 searches from a client that reads nothing: the server stops dispatching once the
   * responses it holds pass the high water mark, so what it buffers stays bounded; once the client
   * reads, every search gets its entry, then its done.
   */
  @Test
  void aClientSendingOneHundredThousandSearchesWithoutReadingCannotGrowServerMemory()
      throws Exception {
    int maxOutstanding = 20;
    running =
        new RunningServer(
            RunningServer.withLimits(
                ProtocolSettings.DEFAULT_MAX_PDU_ANONYMOUS,
                ProtocolSettings.DEFAULT_MAX_PDU_AUTHENTICATED,
                maxOutstanding));
    int searches = 100_000;
    ByteArrayOutputStream requests = new ByteArrayOutputStream();
    for (int id = 1; id <= searches; id++) {
      requests.writeBytes(Pdus.search(id, "cn=x"));
    }
    try (RawClient client = new RawClient(running.port())) {
      client.socket().setReceiveBufferSize(64 * 1024);
      Thread writer =
          new Thread(
              () -> {
                try {
                  client.write(requests.toByteArray());
                } catch (java.io.IOException e) {
                  // the test closed the socket
                }
              });
      writer.start();
      long held = awaitStalled();
      // A search is dispatched only while the channel is writable (at most the high water mark
      // pending), and at most maxOutstanding run at once, each adding one write of its entry and
      // done. A worker's write reaches the pending count only when the event loop runs it, so on a
      // busy machine several rounds of searches may finish before the channel turns unwritable:
      // bounded by a small multiple of maxOutstanding, never by the 100,000 requests sent.
      assertThat(held)
          .isLessThanOrEqualTo(
              RunningServer.HIGH_WATER_MARK
                  + 8L * (maxOutstanding + 1) * pendingBytesOfOneSearch(searches));

      // Requests run concurrently, so responses of different searches interleave; each search must
      // get its entry, then its done.
      java.util.BitSet entries = new java.util.BitSet();
      java.util.BitSet dones = new java.util.BitSet();
      int done = 0;
      while (done < searches) {
        LDAPMessage response = client.read();
        int id = response.getMessageID();
        if (response.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_ENTRY) {
          assertThat(entries.get(id) || dones.get(id)).as("entry of %d", id).isFalse();
          entries.set(id);
        } else {
          assertThat(response.getProtocolOpType())
              .isEqualTo(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE);
          assertThat(entries.get(id) && !dones.get(id)).as("done of %d", id).isTrue();
          dones.set(id);
          done++;
        }
      }
      // Every message ID from 1 to the last got its done, and nothing else did.
      assertThat(dones.nextClearBit(1)).isEqualTo(searches + 1);
      assertThat(dones.get(0)).isFalse();
      writer.join(10_000);
    }
    running.assertServesNormalClient();
  }

  /**
   * What Netty counts per write on top of its bytes: outbound buffer entry (96) and write task
   * (32).
   */
  private static final int NETTY_WRITE_OVERHEAD = 96 + 32;

  /** What one answered search (its entry and done, written together) adds to the pending bytes. */
  private static int pendingBytesOfOneSearch(int largestMessageId) {
    int entry =
        new LDAPMessage(
                largestMessageId,
                new com.unboundid.ldap.protocol.SearchResultEntryProtocolOp(
                    "cn=x", List.of(new com.unboundid.ldap.sdk.Attribute("cn", "sample"))))
            .encode()
            .encode()
            .length;
    int done =
        new LDAPMessage(
                largestMessageId,
                new com.unboundid.ldap.protocol.SearchResultDoneProtocolOp(0, null, null, null))
            .encode()
            .encode()
            .length;
    return entry + done + NETTY_WRITE_OVERHEAD;
  }

  /**
   * Waits for the server to stall on the client that does not read: no request running and more
   * than the high water mark pending, so the channel is unwritable and nothing more is dispatched
   * until the client reads. Returns the bytes pending then.
   */
  private long awaitStalled() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      long pending = running.server.pendingOutboundBytes();
      if (running.server.outstandingRequests() == 0 && pending > RunningServer.HIGH_WATER_MARK) {
        return pending;
      }
      Thread.sleep(1);
    }
    throw new AssertionError(
        "the server never stalled on the client that does not read; pending "
            + running.server.pendingOutboundBytes()
            + " bytes, "
            + running.server.outstandingRequests()
            + " requests running");
  }
}
