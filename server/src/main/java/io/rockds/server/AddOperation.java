package io.rockds.server;

import com.unboundid.ldap.protocol.AddRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;

/**
 * An add (RFC 4511 section 4.7): access control by the rule of the backend holding the DN, then the
 * backend adds the entry (see {@link StoredBackend} for user entries).
 */
final class AddOperation {
  private final ServerContext context;
  private final ClientConnection client;
  private final LDAPMessage request;

  AddOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
    this.context = context;
    this.client = client;
    this.request = request;
  }

  void run() throws LDAPException {
    AddRequestProtocolOp add = request.getAddRequestProtocolOp();
    DN dn = Dns.parse(add.getDN());
    DirectoryBackend backend = context.router().route(dn);
    Entry entry = new Entry(dn, add.getAttributes());
    context.access().checkAdd(client, backend.writeAccess(), entry);
    Written written = backend.add(new Update(context, client, request), entry);
    context.access().written(dn);
    client
        .ldap()
        .send(
            Responses.result(
                request, ResultCode.SUCCESS, null, written.notice(), written.controls()));
  }
}
