package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;
import java.util.List;

/**
 * A modify (RFC 4511 section 4.6, increment RFC 4525): access control by the rule of the backend
 * holding the DN, then the backend applies all modifications or none (a modify of {@code cn=schema}
 * changes the schema, of {@code cn=config} the configuration).
 */
final class ModifyOperation {
  private final ServerContext context;
  private final ClientConnection client;
  private final LDAPMessage request;

  ModifyOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
    this.context = context;
    this.client = client;
    this.request = request;
  }

  void run() throws LDAPException {
    DN dn = Dns.parse(request.getModifyRequestProtocolOp().getDN());
    List<Modification> requested = request.getModifyRequestProtocolOp().getModifications();
    DirectoryBackend backend = context.router().route(dn);
    context.access().checkModify(client, backend.writeAccess(), dn, requested);
    Written written = backend.modify(new Update(context, client, request), dn, requested);
    context.access().written(dn);
    client
        .ldap()
        .send(
            Responses.result(
                request, ResultCode.SUCCESS, null, written.notice(), written.controls()));
  }
}
