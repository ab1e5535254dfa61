package io.rockds.server.hardening;

import static io.rockds.server.hardening.RawConnection.message;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.protocol.AddRequestProtocolOp;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.ExtendedRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a connection runs, and as whom, when a client pipelines requests (issue 18, items 4 and 10):
 * requests behind a bind wait for it; clear-text requests behind a StartTLS never run (the
 * CVE-2011-0411 injection); messageID 0 is refused. Every attack is sent over a raw socket, the
 * pipelined requests in one TCP write.
 */
class RequestOrderIT {
  private static final String START_TLS = "1.3.6.1.4.1.1466.20037";
  private static final String WHO_AM_I = "1.3.6.1.4.1.4203.1.11.3";
  private static final String INJECTED = "cn=injected," + TestServer.BASE;

  @TempDir static Path dir;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(dir, TestServer.baseEntries());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static LDAPMessage startTls(int id) {
    return message(id, new ExtendedRequestProtocolOp(START_TLS, null));
  }

  private static LDAPMessage whoAmI(int id) {
    return message(id, new ExtendedRequestProtocolOp(WHO_AM_I, null));
  }

  private static LDAPMessage bind(int id, String dn, String password) {
    return message(id, new BindRequestProtocolOp(dn, password));
  }

  private static LDAPMessage addInjected(int id) {
    return message(
        id,
        new AddRequestProtocolOp(
            INJECTED,
            List.of(new Attribute("objectClass", "device"), new Attribute("cn", "injected"))));
  }

  private static LDAPMessage readConfig(int id) {
    return message(
        id,
        new SearchRequestProtocolOp(
            "cn=config",
            SearchScope.BASE,
            DereferencePolicy.NEVER,
            0,
            0,
            false,
            Filter.createPresenceFilter("objectClass"),
            List.of()));
  }

  private static boolean isNotice(LDAPMessage m, ResultCode code) {
    return RawConnection.isNoticeOfDisconnection(m)
        && m.getExtendedResponseProtocolOp().getResultCode() == code.intValue();
  }

  private static boolean isStartTlsSuccess(LDAPMessage m) {
    return m.getMessageID() == 1
        && m.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_RESPONSE
        && m.getExtendedResponseProtocolOp().getResultCode() == ResultCode.SUCCESS.intValue();
  }

  private static void assertNotInjected() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      assertThat(root.getEntry(INJECTED)).as("the injected add ran").isNull();
    }
  }

  @Test
  void requestsSentBehindStartTlsInTheSameWriteNeverRun() throws Exception {
    try (RawConnection client = new RawConnection(server.ldapPort())) {
      client.send(
          startTls(1), bind(2, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD), addInjected(3));
      // The server closes the connection (with a protocolError notice when it can still say
      // so), and neither answers the injected requests nor agrees to TLS: a client must not
      // believe that TLS protected what it sent.
      List<LDAPMessage> received = client.readUntilClosed();
      assertThat(received)
          .as("a bind or add response: the injected requests ran")
          .noneMatch(m -> m.getMessageID() == 2 || m.getMessageID() == 3);
      assertThat(received).noneMatch(RequestOrderIT::isStartTlsSuccess);
    }
    assertNotInjected();
  }

  @Test
  void partOfARequestBehindStartTlsClosesTheConnectionBeforeTheHandshake() throws Exception {
    byte[] startTls = startTls(1).encode().encode();
    byte[] bind = bind(2, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD).encode().encode();
    byte[] both = Arrays.copyOf(startTls, startTls.length + 6);
    System.arraycopy(bind, 0, both, startTls.length, 6);
    try (RawConnection client = new RawConnection(server.ldapPort())) {
      client.sendBytes(both);
      assertThat(client.readUntilClosed()).noneMatch(RequestOrderIT::isStartTlsSuccess);
    }
  }

  @Test
  void startTlsThenPipelinedRequestsInsideTlsRunInOrder() throws Exception {
    try (RawConnection client = new RawConnection(server.ldapPort())) {
      client.send(startTls(1));
      LDAPMessage response = client.read();
      assertThat(response.getExtendedResponseProtocolOp().getResultCode()).isZero();
      SSLSocket tls =
          (SSLSocket)
              new SSLUtil(new TrustAllTrustManager())
                  .createSSLSocketFactory()
                  .createSocket(client.socket(), "127.0.0.1", client.socket().getPort(), true);
      tls.startHandshake();
      client.use(tls);
      client.send(bind(2, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD), whoAmI(3));
      assertThat(client.read().getBindResponseProtocolOp().getResultCode()).isZero();
      LDAPMessage who = client.read();
      assertThat(who.getMessageID()).isEqualTo(3);
      assertThat(who.getExtendedResponseProtocolOp().getResponseValue().stringValue())
          .isEqualTo("dn:" + TestServer.ROOT_DN);
    }
  }

  @Test
  void noRequestRunsWithTheIdentityOfBeforeAFailedBindSentAheadOfIt() throws Exception {
    int rounds = 30;
    try (RawConnection client = new RawConnection(server.ldapPort())) {
      List<LDAPMessage> pipelined = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        int id = 1 + 3 * round;
        pipelined.add(bind(id, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD));
        pipelined.add(bind(id + 1, "uid=nobody,ou=People," + TestServer.BASE, "wrong"));
        pipelined.add(readConfig(id + 2));
      }
      client.send(pipelined.toArray(LDAPMessage[]::new));
      int searchesDone = 0;
      while (searchesDone < rounds) {
        LDAPMessage m = client.read();
        assertThat(m).as("the server closed the connection").isNotNull();
        assertThat(m.getProtocolOpType())
            .as("cn=config was read as root after a failed bind")
            .isNotEqualTo(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_ENTRY);
        if (m.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE) {
          assertThat(m.getSearchResultDoneProtocolOp().getResultCode()).isNotZero();
          searchesDone++;
        }
        if (m.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_BIND_RESPONSE) {
          assertThat(m.getBindResponseProtocolOp().getResultCode())
              .isEqualTo(m.getMessageID() % 3 == 1 ? 0 : ResultCode.INVALID_CREDENTIALS.intValue());
        }
      }
    }
  }

  @Test
  void aRequestWithMessageIdZeroGetsANoticeOfDisconnection() throws Exception {
    try (RawConnection client = new RawConnection(server.ldapPort())) {
      client.send(whoAmI(0));
      List<LDAPMessage> received = client.readUntilClosed();
      assertThat(received).hasSize(1);
      assertThat(isNotice(received.get(0), ResultCode.PROTOCOL_ERROR))
          .as(received.toString())
          .isTrue();
      assertThat(received.get(0).getExtendedResponseProtocolOp().getDiagnosticMessage())
          .contains("messageID 0");
    }
  }
}
