package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyDNRequestProtocolOp;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;

/**
 * A modify DN (RFC 4511 section 4.9): rename, optionally keeping the old RDN values, optionally
 * under a new superior. Access control by the rules of the backends holding the old and the new DN,
 * then the backend of the entry moves it with its subtree (user entries: schema-checked, and
 * referential integrity rewrites the member values naming the moved entries).
 */
final class ModifyDnOperation extends UpdateOperation {
  ModifyDnOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
    super(context, client, request);
  }

  @Override
  DN targetDn() throws LDAPException {
    return Dns.parse(request.getModifyDNRequestProtocolOp().getDN());
  }

  @Override
  Written apply(DirectoryBackend backend, DN dn, Update update) throws LDAPException {
    ModifyDNRequestProtocolOp op = request.getModifyDNRequestProtocolOp();
    RDN newRdn;
    try {
      newRdn = new RDN(op.getNewRDN());
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.INVALID_DN_SYNTAX, "invalid new RDN \"" + op.getNewRDN() + "\"");
    }
    DN newSuperior = op.getNewSuperiorDN() == null ? null : Dns.parse(op.getNewSuperiorDN());
    DN parent = newSuperior != null ? newSuperior : dn.getParent();
    if (parent == null) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM, "The entry " + dn + " cannot be renamed");
    }
    DN newDn = new DN(newRdn, parent);
    context
        .access()
        .checkRename(
            client, backend.writeAccess(), context.router().route(newDn).writeAccess(), dn, newDn);
    return backend.rename(update, dn, newDn);
  }
}
