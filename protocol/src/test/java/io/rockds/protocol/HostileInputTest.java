package io.rockds.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.ResultCode;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile byte streams against a real listener. Each ends with the server still serving a
 * well-behaved client.
 */
class HostileInputTest {
  private static final int PROTOCOL_ERROR = ResultCode.PROTOCOL_ERROR_INT_VALUE;
  private RunningServer running;

  @AfterEach
  void stop() throws Exception {
    if (running != null) {
      running.close();
    }
  }

  private RunningServer start(ProtocolSettings settings) throws Exception {
    running = new RunningServer(settings);
    return running;
  }

  @Test
  void lengthBombOfTwoGibibytesIsRefusedBeforeBuffering() throws Exception {
    start(RunningServer.defaults());
    try (RawClient client = new RawClient(running.port())) {
      client.write(new byte[] {0x30, (byte) 0x84, (byte) 0x80, 0, 0, 0, 0x02, 0x01, 0x01});
      assertThat(client.expectNoticeAndClose(PROTOCOL_ERROR)).contains("2147483648 bytes exceeds");
    }
    running.assertServesNormalClient();
  }

  @Test
  void indefiniteLengthIsRefused() throws Exception {
    start(RunningServer.defaults());
    try (RawClient client = new RawClient(running.port())) {
      client.write(new byte[] {0x30, (byte) 0x80, 0x02, 0x01, 0x01, 0x42, 0x00, 0x00, 0x00});
      assertThat(client.expectNoticeAndClose(PROTOCOL_ERROR)).contains("indefinite");
    }
    running.assertServesNormalClient();
  }

  @Test
  void aPduAtTheLimitIsServedAndOneByteOverIsRefused() throws Exception {
    int limit = 1024;
    start(RunningServer.withLimits(limit, 4 * limit, 10));
    byte[] atLimit = searchWithContentLength(limit);
    try (RawClient client = new RawClient(running.port())) {
      client.write(atLimit);
      assertThat(client.read().getProtocolOpType())
          .isEqualTo(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_ENTRY);
      assertThat(client.read().getProtocolOpType())
          .isEqualTo(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE);
      client.write(searchWithContentLength(limit + 1));
      assertThat(client.expectNoticeAndClose(PROTOCOL_ERROR)).contains("1025 bytes exceeds");
    }
    running.assertServesNormalClient();
  }

  @Test
  void theLimitGrowsAfterAnAuthenticatedBind() throws Exception {
    int limit = 1024;
    start(RunningServer.withLimits(limit, 4 * limit, 10));
    try (RawClient client = new RawClient(running.port())) {
      client.write(Pdus.bind(1));
      assertThat(client.read().getBindResponseProtocolOp().getResultCode()).isZero();
      client.write(searchWithContentLength(2 * limit));
      assertThat(client.read().getProtocolOpType())
          .isEqualTo(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_ENTRY);
    }
  }

  /** A search whose LDAPMessage content is exactly {@code length} bytes. */
  private static byte[] searchWithContentLength(int length) {
    for (int n = length; n > 0; n--) {
      byte[] pdu = Pdus.search(2, "cn=" + "a".repeat(n));
      int content = pdu.length - (2 + ((pdu[1] & 0x80) == 0 ? 0 : pdu[1] & 0x7f));
      if (content == length) {
        return pdu;
      }
    }
    throw new IllegalArgumentException("no search of content length " + length);
  }

  @Test
  void anInnerElementOverrunningItsPduIsRefused() throws Exception {
    start(RunningServer.defaults());
    byte[] bind = Pdus.bind(1);
    bind[6] = 0x7f; // the bind request's own length now overruns the message
    try (RawClient client = new RawClient(running.port())) {
      client.write(bind);
      assertThat(client.expectNoticeAndClose(PROTOCOL_ERROR)).contains("overruns");
    }
    running.assertServesNormalClient();
  }

  @Test
  void aTruncatedPduFromAClientThatLeavesCostsNothing() throws Exception {
    start(RunningServer.defaults());
    for (int i = 0; i < 50; i++) {
      try (RawClient client = new RawClient(running.port())) {
        byte[] search = Pdus.search(1, "cn=x");
        client.write(Arrays.copyOf(search, search.length / 2));
      }
    }
    running.assertServesNormalClient();
  }

  @Test
  void aTruncatedPduThatNeverCompletesHitsTheReadDeadline() throws Exception {
    start(RunningServer.withTimeouts(Duration.ZERO, Duration.ofMillis(300)));
    try (RawClient client = new RawClient(running.port())) {
      byte[] search = Pdus.search(1, "cn=x");
      client.write(Arrays.copyOf(search, search.length - 1));
      assertThat(client.expectNoticeAndClose(PROTOCOL_ERROR))
          .contains("not received within 300 ms");
    }
    running.assertServesNormalClient();
  }

  @Test
  void garbageBytesAreRefused() throws Exception {
    start(RunningServer.defaults());
    Random random = new Random(42);
    for (int i = 0; i < 20; i++) {
      byte[] garbage = new byte[64 + random.nextInt(512)];
      random.nextBytes(garbage);
      garbage[0] = (byte) (i % 2 == 0 ? 0x30 : 0x17); // half look like a SEQUENCE, half do not
      garbage[1] = (byte) 0x81;
      garbage[2] = (byte) (garbage.length - 3);
      try (RawClient client = new RawClient(running.port())) {
        client.write(garbage);
        client.expectNoticeAndClose(PROTOCOL_ERROR);
      }
    }
    running.assertServesNormalClient();
  }

  @Test
  void aFilterNestedTenThousandDeepIsRefusedWithoutRecursion() throws Exception {
    start(RunningServer.defaults());
    try (RawClient client = new RawClient(running.port())) {
      client.write(Pdus.deeplyNestedSearch(1, 10_000));
      assertThat(client.expectNoticeAndClose(PROTOCOL_ERROR)).contains("nesting deeper than");
    }
    running.assertServesNormalClient();
  }

  @Test
  void anUnknownProtocolOperationIsAProtocolError() throws Exception {
    start(RunningServer.defaults());
    try (RawClient client = new RawClient(running.port())) {
      client.write(new byte[] {0x30, 0x05, 0x02, 0x01, 0x01, 0x7f, 0x00}); // [APPLICATION 31]
      client.expectNoticeAndClose(PROTOCOL_ERROR);
    }
    running.assertServesNormalClient();
  }

  @Test
  void slowlorisBeforeTheFirstRequestIsCutAtTheDeadline() throws Exception {
    start(RunningServer.withTimeouts(Duration.ZERO, Duration.ofMillis(1500)));
    try (RawClient client = new RawClient(running.port())) {
      assertThat(trickle(client, Pdus.bind(1))).isLessThan(Pdus.bind(1).length);
      assertThat(client.expectNoticeAndClose(PROTOCOL_ERROR))
          .contains("first request was not received");
    }
    running.assertServesNormalClient();
  }

  @Test
  void slowlorisAfterABindIsCutAtTheDeadline() throws Exception {
    start(RunningServer.withTimeouts(Duration.ZERO, Duration.ofMillis(1500)));
    try (RawClient client = new RawClient(running.port())) {
      client.write(Pdus.bind(1));
      assertThat(client.read().getBindResponseProtocolOp().getResultCode()).isZero();
      trickle(client, Pdus.search(2, "cn=x"));
      assertThat(client.expectNoticeAndClose(PROTOCOL_ERROR))
          .contains("a request was not received");
    }
    running.assertServesNormalClient();
  }

  /** Sends one byte per second until the server closes; returns how many bytes went out. */
  private static int trickle(RawClient client, byte[] pdu) throws InterruptedException {
    int sent = 0;
    try {
      for (; sent < pdu.length && sent < 5; sent++) {
        client.write(new byte[] {pdu[sent]});
        Thread.sleep(1000);
      }
    } catch (IOException closedByServer) {
      // expected once the deadline passed
    }
    return sent;
  }

  @Test
  void connectionsOverTheLimitGetANoticeOfDisconnection() throws Exception {
    start(RunningServer.withMaxConnections(2));
    try (RawClient first = new RawClient(running.port());
        RawClient second = new RawClient(running.port())) {
      first.write(Pdus.bind(1));
      second.write(Pdus.bind(1));
      first.read();
      second.read();
      try (RawClient third = new RawClient(running.port())) {
        assertThat(third.expectNoticeAndClose(ResultCode.UNAVAILABLE_INT_VALUE))
            .contains("too many connections");
      }
    }
    for (int i = 0; i < 500 && running.server.connectionCount() > 0; i++) {
      Thread.sleep(10); // the server learns of the closes asynchronously
    }
    running.assertServesNormalClient();
  }
}
