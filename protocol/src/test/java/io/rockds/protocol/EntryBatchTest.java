package io.rockds.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link EntryBatch}, the way the server hands search result entries to the event loop, through a
 * real server ({@link SampleDirectory} searches {@code cn=entries-N}) and a raw client.
 */
class EntryBatchTest {
  @Test
  void entriesSpanningManyBatchesLeaveInOrderFollowedByTheDone() throws Exception {
    int count = 200; // about 200 KB: a dozen batches and a partial last one
    try (RunningServer running = new RunningServer(RunningServer.defaults());
        RawClient client = new RawClient(running.port())) {
      client.write(Pdus.search(3, SampleDirectory.ENTRIES_BASE_PREFIX + count));
      for (int i = 0; i < count; i++) {
        LDAPMessage entry = client.read();
        assertThat(entry.getProtocolOpType())
            .as("message %d", i)
            .isEqualTo(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_ENTRY);
        assertThat(entry.getMessageID()).isEqualTo(3);
        assertThat(entry.getSearchResultEntryProtocolOp().getDN())
            .isEqualTo("cn=" + i + ",cn=entries-" + count);
      }
      LDAPMessage done = client.read();
      assertThat(done.getProtocolOpType())
          .isEqualTo(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE);
      assertThat(done.getMessageID()).isEqualTo(3);
    }
  }

  @Test
  void aSearchWithOneEntryLeavesEntryAndDoneTogether() throws Exception {
    try (RunningServer running = new RunningServer(RunningServer.defaults());
        RawClient client = new RawClient(running.port())) {
      client.write(Pdus.search(4, "cn=one"));
      assertThat(client.read().getSearchResultEntryProtocolOp().getDN()).isEqualTo("cn=one");
      assertThat(client.read().getProtocolOpType())
          .isEqualTo(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE);
    }
  }

  /**
   * A client that stops reading: the batch writes only while the channel is writable, so the server
   * holds at most the high water mark and one batch, and once the channel stays unwritable for the
   * allowed wait, {@code add} says so and the search stops. What did leave reaches the client
   * intact and in order, and the connection goes on serving.
   */
  @Test
  void aClientThatStopsReadingStopsTheSearchWithABoundedBuffer() throws Exception {
    // Far more than the kernel's socket buffers and the high water mark together.
    int count = 40_000;
    try (RunningServer running = new RunningServer(RunningServer.defaults());
        RawClient client = new RawClient(running.port())) {
      running.directory.slowClientWaitMillis = 300;
      client.socket().setReceiveBufferSize(64 * 1024);
      client.write(Pdus.search(5, SampleDirectory.ENTRIES_BASE_PREFIX + count));

      Integer accepted =
          running.directory.stoppedSearchesAcceptedEntries.poll(120, TimeUnit.SECONDS);
      assertThat(accepted).as("the search stopped for the client that does not read").isNotNull();
      assertThat(accepted).isLessThan(count);
      // Nothing writes any more; what the server holds is what its last writable batch brought.
      long entryBytes = SampleDirectory.LARGE_VALUE_BYTES + 64;
      assertThat(running.server.pendingOutboundBytes())
          .isGreaterThan(0)
          .isLessThanOrEqualTo(
              RunningServer.HIGH_WATER_MARK + EntryBatch.BATCH_BYTES + entryBytes + 128);

      // The client reads again: a gapless prefix of the entries, never more than were accepted,
      // and no more than one batch short of it (the batch that could not be written is dropped).
      client.socket().setSoTimeout(2_000);
      int received = 0;
      try {
        for (LDAPMessage message = client.read(); message != null; message = client.read()) {
          assertThat(message.getProtocolOpType())
              .isEqualTo(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_ENTRY);
          assertThat(message.getSearchResultEntryProtocolOp().getDN())
              .isEqualTo("cn=" + received + ",cn=entries-" + count);
          received++;
        }
      } catch (LDAPException e) {
        // A read timeout: all that was sent has been read.
        assertThat(e.getCause()).isInstanceOf(SocketTimeoutException.class);
      }
      assertThat(received).isLessThanOrEqualTo(accepted);
      assertThat(accepted - received)
          .isLessThanOrEqualTo(
              (int) (EntryBatch.BATCH_BYTES / SampleDirectory.LARGE_VALUE_BYTES) + 1);

      client.write(Pdus.search(6, "cn=after"));
      assertThat(client.read().getSearchResultEntryProtocolOp().getDN()).isEqualTo("cn=after");
    }
  }
}
