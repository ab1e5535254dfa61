package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;
import java.util.List;

/**
 * A modify (RFC 4511 section 4.6, increment RFC 4525): access control by the rule of the backend
 * holding the DN, then the backend applies all modifications or none (a modify of {@code cn=schema}
 * changes the schema, of {@code cn=config} the configuration).
 */
final class ModifyOperation extends UpdateOperation {
  ModifyOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
    super(context, client, request);
  }

  @Override
  DN targetDn() throws LDAPException {
    return Dns.parse(request.getModifyRequestProtocolOp().getDN());
  }

  @Override
  Written apply(DirectoryBackend backend, DN dn, Update update) throws LDAPException {
    List<Modification> requested = request.getModifyRequestProtocolOp().getModifications();
    context.access().checkModify(client, backend.writeAccess(), dn, requested);
    return backend.modify(update, dn, requested);
  }
}
