package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import java.util.ArrayList;
import java.util.List;

/**
 * A modify (RFC 4511 section 4.6, increment RFC 4525): all modifications apply or none does, in
 * one storage batch, with no other write of the entry in between.
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
    context.access().checkModify(client, dn, requested);
    List<Modification> modifications = new ArrayList<>(requested.size());
    for (Modification m : requested) {
      AttributeTypeDefinition type = context.schema().getAttributeType(m.getAttribute().getBaseName());
      if (type != null && type.isNoUserModification()) {
        throw new LDAPException(ResultCode.CONSTRAINT_VIOLATION,
            "The attribute " + m.getAttributeName() + " is not user-modifiable");
      }
      modifications.add(PasswordValues.hash(m, context.passwords()));
    }
    modifications.addAll(context.passwordPolicy().stateChanges(client, dn, requested));
    WriteTarget.container(context, dn).modify(dn, current -> {
      Entry updated = Entry.applyModifications(current, false, modifications);
      OperationalAttributes.onModify(updated, client.identity());
      return updated;
    });
    context.access().written(dn);
    client.ldap().send(Responses.success(request));
  }
}
