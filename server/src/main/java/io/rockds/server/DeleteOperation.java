package io.rockds.server;

import io.rockds.config.ConfigDns;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.schema.SubschemaEntry;
import io.rockds.storage.EntryContainer;
import java.util.List;

/**
 * A delete (RFC 4511 section 4.8): leaf entries only, notAllowedOnNonLeaf (66) otherwise, unless
 * the subtree delete control asks for the whole subtree (one storage batch). Referential
 * integrity then drops the deleted DNs from the groups that listed them.
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
    if (ConfigDns.isConfig(dn)) {
      String notice = context.configBackend().delete(client.identity(), dn);
      client.ldap().send(Responses.result(request, ResultCode.SUCCESS, notice));
      return;
    }
    context.access().checkDelete(client, dn);
    if (dn.equals(SubschemaEntry.DN)) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "The subschema entry cannot be deleted");
    }
    WriteControls controls = new WriteControls(request, context.schema(), client.identity());
    EntryContainer container = WriteTarget.container(context, dn);
    Entry entry = container.get(dn);
    if (entry == null) {
      DN matched = container.matchedDn(dn);
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The entry " + dn + " does not exist",
          matched == null ? null : matched.toString(), null);
    }
    controls.checkAssertion(entry);
    List<DN> deleted;
    if (controls.subtreeDelete()) {
      if (controls.noOp()) {
        throw controls.noOperation();
      }
      deleted = container.deleteSubtree(dn);
    } else {
      if (controls.noOp()) {
        if (container.childCount(container.idOf(dn)) > 0) {
          throw new LDAPException(ResultCode.NOT_ALLOWED_ON_NONLEAF,
              "The entry " + dn + " cannot be deleted because it has subordinate entries");
        }
        throw controls.noOperation();
      }
      container.delete(dn);
      deleted = List.of(dn);
    }
    deleted.forEach(context.access()::written);
    context.groups().integrity().deleted(deleted);
    client.ldap().send(Responses.result(request, ResultCode.SUCCESS, null, null,
        controls.readControls(entry, null)));
  }
}
