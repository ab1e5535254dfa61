package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyDNRequestProtocolOp;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.schema.ModificationApplier;
import io.rockds.server.schema.SchemaChecker;
import io.rockds.server.schema.SubschemaEntry;
import io.rockds.storage.EntryContainer;

/**
 * A modify DN (RFC 4511 section 4.9): rename, optionally keeping the old RDN values, optionally
 * under a new superior; the renamed entry is schema-checked (a new RDN attribute its classes do
 * not allow is objectClassViolation (65)) and the whole subtree moves in one storage batch.
 * Referential integrity then rewrites the member values naming the moved entries.
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
    if (parent == null || dn.equals(SubschemaEntry.DN)) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "The entry " + dn + " cannot be renamed");
    }
    DN newDn = new DN(newRdn, parent);
    context.access().checkRename(client, dn, newDn);
    WriteControls controls = new WriteControls(request, context.schema(), client.identity());
    SchemaChecker checker = context.serverSchema().checker();
    for (String attribute : newRdn.getAttributeNames()) {
      checker.type(attribute);
    }
    EntryContainer container = WriteTarget.container(context, dn);
    if (container != context.backends().containerFor(newDn)) {
      throw new LDAPException(ResultCode.AFFECTS_MULTIPLE_DSAS,
          "The entry " + dn + " cannot be moved to " + newDn + " because it would change backends");
    }
    if (newSuperior != null && container.idOf(newSuperior) < 0) {
      // As OpenLDAP: no matchedDN, which would describe the new superior, not the target entry.
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The new superior entry " + newSuperior + " does not exist");
    }
    Entry[] before = {null};
    Entry[] after = {null};
    container.rename(dn, newDn, current -> {
      controls.checkAssertion(current);
      Entry renamed = Entry.applyModifyDN(current, op.getNewRDN(), op.deleteOldRDN(), op.getNewSuperiorDN());
      new ModificationApplier(checker).takeRdnForm(renamed);
      OperationalAttributes.onModify(renamed, client.identity());
      checker.check(renamed, new Entry(newDn, newRdn.getAttributes()));
      if (controls.noOp()) {
        throw controls.noOperation();
      }
      before[0] = current;
      after[0] = renamed;
      return renamed;
    });
    context.access().written(dn);
    context.groups().integrity().renamed(container, dn, newDn);
    client.ldap().send(Responses.result(request, ResultCode.SUCCESS, null, null,
        controls.readControls(before[0], after[0])));
  }
}
