package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.ExtendedRequest;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.CancelExtendedRequest;
import java.util.Set;

/**
 * The Cancel extended operation (RFC 3909): stops another operation of the same connection and
 * waits for it to end. The cancelled operation answers {@code canceled} (118) and the cancel
 * answers success; an operation that finished first makes the cancel answer {@code tooLate} (120),
 * an unknown message ID {@code noSuchOperation} (119), and operations that must not be interrupted
 * (bind, StartTLS and other extended operations, among them cancel itself) {@code cannotCancel}
 * (121).
 */
final class CancelOperation {
  static final String OID = CancelExtendedRequest.CANCEL_REQUEST_OID;

  /** How long a cancel waits for its target to notice the stop flag. */
  private static final long WAIT_MILLIS = 30_000;

  private static final Set<Byte> CANNOT_CANCEL =
      Set.of(
          LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST, LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_REQUEST);

  private final ClientConnection client;
  private final ExtendedRequest request;

  CancelOperation(ClientConnection client, ExtendedRequest request) {
    this.client = client;
    this.request = request;
  }

  /** Returns the cancel's own result code once the target has ended. */
  ResultCode run() throws LDAPException {
    int target;
    try {
      target = new CancelExtendedRequest(request).getTargetMessageID();
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.PROTOCOL_ERROR, "Malformed cancel request: " + e.getMessage());
    }
    RunningOperation operation = client.running(target);
    if (operation == null) {
      throw new LDAPException(
          ResultCode.NO_SUCH_OPERATION, "No operation with message ID " + target + " is running");
    }
    if (CANNOT_CANCEL.contains(operation.type())) {
      throw new LDAPException(
          ResultCode.CANNOT_CANCEL,
          "The operation with message ID " + target + " cannot be canceled");
    }
    operation.requestCancel();
    try {
      if (!operation.awaitCancelled(WAIT_MILLIS)) {
        throw new LDAPException(
            ResultCode.TOO_LATE,
            "The operation with message ID " + target + " completed before it could be canceled");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LDAPException(ResultCode.UNAVAILABLE, "The server is shutting down");
    }
    return ResultCode.SUCCESS;
  }
}
