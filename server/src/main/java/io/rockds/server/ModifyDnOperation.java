package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyDNRequestProtocolOp;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.storage.EntryContainer;

/**
 * A modify DN (RFC 4511 section 4.9): rename, optionally keeping the old RDN values, optionally
 * under a new superior; the whole subtree moves in one storage batch.
 */
final class ModifyDnOperation {
  private final ServerContext context;
  private final ClientConnection client;
  private final LDAPMessage request;

  ModifyDnOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
    this.context = context;
    this.client = client;
    this.request = request;
  }

  void run() throws LDAPException {
    ModifyDNRequestProtocolOp op = request.getModifyDNRequestProtocolOp();
    DN dn = Dns.parse(op.getDN());
    RDN newRdn;
    try {
      newRdn = new RDN(op.getNewRDN());
    } catch (LDAPException e) {
      throw new LDAPException(ResultCode.INVALID_DN_SYNTAX, "invalid new RDN \"" + op.getNewRDN() + "\"");
    }
    DN newSuperior = op.getNewSuperiorDN() == null ? null : Dns.parse(op.getNewSuperiorDN());
    DN parent = newSuperior != null ? newSuperior : dn.getParent();
    if (parent == null) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "The root DSE cannot be renamed");
    }
    DN newDn = new DN(newRdn, parent);
    context.access().checkRename(client, dn, newDn);
    EntryContainer container = WriteTarget.container(context, dn);
    if (container != context.backends().containerFor(newDn)) {
      throw new LDAPException(ResultCode.AFFECTS_MULTIPLE_DSAS,
          "The entry " + dn + " cannot be moved to " + newDn + " because it would change backends");
    }
    container.rename(dn, newDn, current -> {
      Entry renamed = Entry.applyModifyDN(current, op.getNewRDN(), op.deleteOldRDN(), op.getNewSuperiorDN());
      OperationalAttributes.onModify(renamed, client.identity());
      return renamed;
    });
    context.access().written(dn);
    client.ldap().send(Responses.success(request));
  }
}
