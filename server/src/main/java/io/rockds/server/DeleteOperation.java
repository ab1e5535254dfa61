package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;

/**
 * A delete (RFC 4511 section 4.8): access control by the rule of the backend holding the DN, then
 * the backend deletes (user entries: leaf entries, or a subtree with the subtree delete control,
 * and referential integrity drops the deleted DNs from the groups that listed them).
 */
final class DeleteOperation extends UpdateOperation {
  DeleteOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
    super(context, client, request);
  }

  @Override
  DN targetDn() throws LDAPException {
    return Dns.parse(request.getDeleteRequestProtocolOp().getDN());
  }

  @Override
  Written apply(DirectoryBackend backend, DN dn, Update update) throws LDAPException {
    context.access().checkDelete(client, backend.writeAccess(), dn);
    return backend.delete(update, dn);
  }
}
