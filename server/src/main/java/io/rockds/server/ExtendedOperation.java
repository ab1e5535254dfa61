package io.rockds.server;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.ExtendedRequestProtocolOp;
import com.unboundid.ldap.protocol.ExtendedResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.security.policy.PasswordPolicyService;
import java.util.List;

/**
 * Extended operations: StartTLS (RFC 4511 section 4.14), Who am I? (RFC 4532), Password Modify (RFC
 * 3062, through the password policy) and Cancel (RFC 3909). {@link #SUPPORTED} is what the root DSE
 * advertises.
 */
record ExtendedOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
  static final String START_TLS = "1.3.6.1.4.1.1466.20037";
  static final String WHO_AM_I = "1.3.6.1.4.1.4203.1.11.3";
  static final List<String> SUPPORTED =
      List.of(START_TLS, WHO_AM_I, PasswordPolicyService.PASSWORD_MODIFY_OID, CancelOperation.OID);

  void run() throws LDAPException {
    ExtendedRequestProtocolOp op = request.getExtendedRequestProtocolOp();
    switch (op.getOID()) {
      case WHO_AM_I ->
          respond(ResultCode.SUCCESS, new ASN1OctetString(client.identity().authzId()));
      case START_TLS -> startTls();
      case PasswordPolicyService.PASSWORD_MODIFY_OID ->
          context.passwordPolicy().passwordModify(client, request);
      case CancelOperation.OID ->
          respond(new CancelOperation(client, op.toExtendedRequest()).run(), null);
      default ->
          throw new LDAPException(
              ResultCode.PROTOCOL_ERROR,
              "the extended operation " + op.getOID() + " is not supported");
    }
  }

  private void startTls() throws LDAPException {
    if (context.sslContext() == null) {
      throw new LDAPException(ResultCode.UNAVAILABLE, "TLS is not configured on this server");
    }
    if (client.ldap().isSecure()) {
      throw new LDAPException(
          ResultCode.OPERATIONS_ERROR, "TLS is already active on this connection");
    }
    client
        .ldap()
        .startTls(
            context.sslContext(),
            new LDAPMessage(
                request.getMessageID(),
                new ExtendedResponseProtocolOp(0, null, null, null, START_TLS, null)));
  }

  private void respond(ResultCode code, ASN1OctetString value) {
    client
        .ldap()
        .send(
            new LDAPMessage(
                request.getMessageID(),
                new ExtendedResponseProtocolOp(code.intValue(), null, null, null, null, value)));
  }
}
