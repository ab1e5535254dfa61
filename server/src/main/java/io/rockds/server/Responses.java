package io.rockds.server;

import com.unboundid.ldap.protocol.AddResponseProtocolOp;
import com.unboundid.ldap.protocol.BindResponseProtocolOp;
import com.unboundid.ldap.protocol.CompareResponseProtocolOp;
import com.unboundid.ldap.protocol.DeleteResponseProtocolOp;
import com.unboundid.ldap.protocol.ExtendedResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyDNResponseProtocolOp;
import com.unboundid.ldap.protocol.ModifyResponseProtocolOp;
import com.unboundid.ldap.protocol.ProtocolOp;
import com.unboundid.ldap.protocol.SearchResultDoneProtocolOp;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.List;

/** Builds the response message that matches a request's type. */
public final class Responses {
  private Responses() {}

  /** The final response to {@code request} with the given result. */
  public static LDAPMessage result(
      LDAPMessage request,
      ResultCode code,
      String matchedDn,
      String message,
      List<Control> controls) {
    int rc = code.intValue();
    ProtocolOp op =
        switch (request.getProtocolOpType()) {
          case LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST ->
              new BindResponseProtocolOp(rc, matchedDn, message, null, null);
          case LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST ->
              new SearchResultDoneProtocolOp(rc, matchedDn, message, null);
          case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST ->
              new AddResponseProtocolOp(rc, matchedDn, message, null);
          case LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST ->
              new DeleteResponseProtocolOp(rc, matchedDn, message, null);
          case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST ->
              new ModifyResponseProtocolOp(rc, matchedDn, message, null);
          case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST ->
              new ModifyDNResponseProtocolOp(rc, matchedDn, message, null);
          case LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_REQUEST ->
              new CompareResponseProtocolOp(rc, matchedDn, message, null);
          default -> new ExtendedResponseProtocolOp(rc, matchedDn, message, null, null, null);
        };
    return new LDAPMessage(request.getMessageID(), op, controls);
  }

  public static LDAPMessage result(LDAPMessage request, ResultCode code, String message) {
    return result(request, code, null, message, List.of());
  }

  /**
   * The result an operation's exception stands for; its message is the client's diagnostic message.
   */
  public static LDAPMessage result(LDAPMessage request, LDAPException e) {
    return result(
        request,
        e.getResultCode(),
        e.getMatchedDN(),
        diagnosticMessage(e),
        List.of(e.getResponseControls()));
  }

  /**
   * The message a client sees: new LDAPException(code, message) leaves the diagnostic message null.
   */
  public static String diagnosticMessage(LDAPException e) {
    return e.getDiagnosticMessage() != null ? e.getDiagnosticMessage() : e.getMessage();
  }

  public static LDAPMessage success(LDAPMessage request) {
    return result(request, ResultCode.SUCCESS, null, null, List.of());
  }
}
