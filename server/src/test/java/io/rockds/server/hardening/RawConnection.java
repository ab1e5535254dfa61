package io.rockds.server.hardening;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ProtocolOp;
import com.unboundid.ldap.sdk.LDAPException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * A client over a plain socket that sends exactly the PDUs a test builds, several in one TCP write
 * when asked (pipelining, injection behind StartTLS), and reads the server's messages one by one.
 */
final class RawConnection implements AutoCloseable {
  static final String NOTICE_OF_DISCONNECTION = "1.3.6.1.4.1.1466.20036";

  private Socket socket;
  private OutputStream out;
  private ASN1StreamReader in;

  RawConnection(int port) throws IOException {
    use(new Socket("127.0.0.1", port));
  }

  /** Over a socket the test connected itself (with its own buffer sizes). */
  RawConnection(Socket connected) throws IOException {
    use(connected);
  }

  /** Talks through {@code layered} from now on (the same connection after a TLS handshake). */
  void use(Socket layered) throws IOException {
    socket = layered;
    socket.setSoTimeout(30_000);
    out = socket.getOutputStream();
    in = new ASN1StreamReader(socket.getInputStream());
  }

  Socket socket() {
    return socket;
  }

  /** One PDU per message, all in one write. */
  void send(LDAPMessage... messages) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (LDAPMessage message : messages) {
      bytes.writeBytes(message.encode().encode());
    }
    sendBytes(bytes.toByteArray());
  }

  void sendBytes(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  static LDAPMessage message(int messageId, ProtocolOp op) {
    return new LDAPMessage(messageId, op);
  }

  /** The next message, or null at end of stream (or a reset). */
  LDAPMessage read() throws IOException {
    try {
      return LDAPMessage.readFrom(in, false);
    } catch (LDAPException e) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof SocketTimeoutException) {
          throw new AssertionError("the server neither answered nor closed the connection", e);
        }
      }
      return null;
    }
  }

  /** Every message until the server closes the connection. */
  List<LDAPMessage> readUntilClosed() throws IOException {
    List<LDAPMessage> messages = new ArrayList<>();
    for (LDAPMessage m = read(); m != null; m = read()) {
      messages.add(m);
    }
    return messages;
  }

  /** True once the server closed: the next read sees the end of the stream (or a reset). */
  boolean closedByServer() throws IOException {
    try {
      InputStream raw = socket.getInputStream();
      return raw.read() == -1;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  static boolean isNoticeOfDisconnection(LDAPMessage m) {
    return m.getMessageID() == 0
        && m.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_RESPONSE
        && NOTICE_OF_DISCONNECTION.equals(m.getExtendedResponseProtocolOp().getResponseOID());
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
