package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;

/** A delete (RFC 4511 section 4.8): leaf entries only, notAllowedOnNonLeaf (66) otherwise. */
final class DeleteOperation {
  private final ServerContext context;
  private final ClientConnection client;
  private final LDAPMessage request;

  DeleteOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
    this.context = context;
    this.client = client;
    this.request = request;
  }

  void run() throws LDAPException {
    DN dn = Dns.parse(request.getDeleteRequestProtocolOp().getDN());
    context.access().checkDelete(client, dn);
    WriteTarget.container(context, dn).delete(dn);
    context.access().written(dn);
    client.ldap().send(Responses.success(request));
  }
}
