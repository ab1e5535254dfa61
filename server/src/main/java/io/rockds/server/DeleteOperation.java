package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;

/**
 * A delete (RFC 4511 section 4.8): access control by the rule of the backend holding the DN, then
 * the backend deletes (user entries: leaf entries, or a subtree with the subtree delete control,
 * and referential integrity drops the deleted DNs from the groups that listed them).
 */
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
    DirectoryBackend backend = context.router().route(dn);
    context.access().checkDelete(client, backend.writeAccess(), dn);
    Written written = backend.delete(new Update(context, client, request), dn);
    context.access().written(dn);
    client
        .ldap()
        .send(
            Responses.result(
                request, ResultCode.SUCCESS, null, written.notice(), written.controls()));
  }
}
