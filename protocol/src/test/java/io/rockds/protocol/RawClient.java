package io.rockds.protocol;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A client that writes whatever bytes a test wants and reads the server's messages. Reading uses
 * the SDK's streaming reader, which is fine on this side: the bytes come from our own server.
 */
final class RawClient implements AutoCloseable {
  private final Socket socket;
  private final OutputStream out;
  private final ASN1StreamReader in;

  RawClient(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    out = socket.getOutputStream();
    in = new ASN1StreamReader(socket.getInputStream());
  }

  Socket socket() {
    return socket;
  }

  RawClient write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
    return this;
  }

  /** The next message from the server, or null when it closed the connection. */
  LDAPMessage read() throws IOException, LDAPException {
    return LDAPMessage.readFrom(in, false);
  }

  /** Asserts the server sent a Notice of Disconnection with {@code resultCode} and then closed. */
  String expectNoticeAndClose(int resultCode) throws IOException, LDAPException {
    LDAPMessage notice = read();
    if (notice == null
        || notice.getMessageID() != 0
        || notice.getProtocolOpType() != LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_RESPONSE
        || !LdapConnection.NOTICE_OF_DISCONNECTION_OID.equals(
            notice.getExtendedResponseProtocolOp().getResponseOID())
        || notice.getExtendedResponseProtocolOp().getResultCode() != resultCode) {
      throw new AssertionError(
          "expected a Notice of Disconnection with result " + resultCode + ", got " + notice);
    }
    expectClosed();
    return notice.getExtendedResponseProtocolOp().getDiagnosticMessage();
  }

  void expectClosed() throws IOException {
    try {
      if (socket.getInputStream().read() != -1) {
        throw new AssertionError("the server sent more after the notice");
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server did not close the connection", e);
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
