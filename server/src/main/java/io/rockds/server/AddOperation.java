package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;

/**
 * An add (RFC 4511 section 4.7): access control by the rule of the backend holding the DN, then the
 * backend adds the entry (see {@link StoredBackend} for user entries).
 */
final class AddOperation extends UpdateOperation {
  AddOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
    super(context, client, request);
  }

  @Override
  DN targetDn() throws LDAPException {
    return Dns.parse(request.getAddRequestProtocolOp().getDN());
  }

  @Override
  Written apply(DirectoryBackend backend, DN dn, Update update) throws LDAPException {
    Entry entry = new Entry(dn, request.getAddRequestProtocolOp().getAttributes());
    context.access().checkAdd(client, backend.writeAccess(), entry);
    return backend.add(update, entry);
  }
}
