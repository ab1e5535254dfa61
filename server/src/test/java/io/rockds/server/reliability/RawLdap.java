package io.rockds.server.reliability;

import com.unboundid.asn1.ASN1Element;
import com.unboundid.asn1.ASN1Integer;
import com.unboundid.asn1.ASN1Sequence;
import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A client that writes raw bytes, for the inputs the SDK will not produce (invalid BER, invalid
 * UTF-8, out-of-range integers), and reads what comes back.
 */
final class RawLdap implements AutoCloseable {
  /** How the server answered a hostile request. */
  record Outcome(boolean disconnected, ResultCode resultCode, String message) {
    static Outcome closed(String why) {
      return new Outcome(true, null, why);
    }

    @Override
    public String toString() {
      return disconnected ? "disconnected (" + message + ")" : resultCode + " " + message;
    }
  }

  private static final String NOTICE_OF_DISCONNECTION = "1.3.6.1.4.1.1466.20036";

  private final Socket socket;
  private final OutputStream out;
  private final ASN1StreamReader in;

  RawLdap(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(15_000);
    out = socket.getOutputStream();
    in = new ASN1StreamReader(socket.getInputStream());
  }

  /** An LDAPMessage: message ID, the protocol op element, optional controls ([0] SEQUENCE). */
  static byte[] message(int messageId, ASN1Element op, ASN1Element... controls) {
    ASN1Element[] parts =
        controls.length == 0
            ? new ASN1Element[] {new ASN1Integer(messageId), op}
            : new ASN1Element[] {
              new ASN1Integer(messageId), op, new ASN1Sequence((byte) 0xA0, controls)
            };
    return new ASN1Sequence(parts).encode();
  }

  void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /**
   * The server's answer to the last request: its result, or a disconnection (a Notice of
   * Disconnection, a reset or end of stream). Search entries before the result are skipped.
   */
  Outcome outcome() {
    try {
      while (true) {
        LDAPMessage response = LDAPMessage.readFrom(in, false);
        if (response == null) {
          return Outcome.closed("end of stream");
        }
        if (response.getMessageID() == 0) {
          var nod = response.getExtendedResponseProtocolOp();
          if (nod != null && NOTICE_OF_DISCONNECTION.equals(nod.getResponseOID())) {
            return Outcome.closed(
                "notice of disconnection: " + ResultCode.valueOf(nod.getResultCode()));
          }
        }
        ResultCode code = resultCode(response);
        if (code != null) {
          return new Outcome(false, code, messageOf(response));
        }
      }
    } catch (LDAPException e) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof SocketTimeoutException) {
          throw new AssertionError("the server neither answered nor disconnected", e);
        }
      }
      return Outcome.closed(e.getMessage());
    }
  }

  private static ResultCode resultCode(LDAPMessage m) {
    return switch (m.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE ->
          ResultCode.valueOf(m.getSearchResultDoneProtocolOp().getResultCode());
      case LDAPMessage.PROTOCOL_OP_TYPE_ADD_RESPONSE ->
          ResultCode.valueOf(m.getAddResponseProtocolOp().getResultCode());
      case LDAPMessage.PROTOCOL_OP_TYPE_BIND_RESPONSE ->
          ResultCode.valueOf(m.getBindResponseProtocolOp().getResultCode());
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_RESPONSE ->
          ResultCode.valueOf(m.getModifyResponseProtocolOp().getResultCode());
      case LDAPMessage.PROTOCOL_OP_TYPE_DELETE_RESPONSE ->
          ResultCode.valueOf(m.getDeleteResponseProtocolOp().getResultCode());
      case LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_RESPONSE ->
          ResultCode.valueOf(m.getCompareResponseProtocolOp().getResultCode());
      case LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_RESPONSE ->
          ResultCode.valueOf(m.getExtendedResponseProtocolOp().getResultCode());
      default -> null;
    };
  }

  private static String messageOf(LDAPMessage m) {
    return m.getProtocolOp().toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
