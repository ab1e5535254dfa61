package io.rockds.server;

import com.unboundid.ldap.protocol.AddRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;

/** An add (RFC 4511 section 4.7): checks, stamps operational attributes, one storage batch. */
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
    Entry entry = new Entry(dn, add.getAttributes());
    context.access().checkAdd(client, entry);
    for (Attribute attribute : add.getAttributes()) {
      AttributeTypeDefinition type = context.schema().getAttributeType(attribute.getBaseName());
      if (type != null && type.isNoUserModification()) {
        throw new LDAPException(ResultCode.CONSTRAINT_VIOLATION,
            "The attribute " + attribute.getName() + " is not user-modifiable");
      }
    }
    PasswordValues.hash(entry, context.passwords());
    OperationalAttributes.onAdd(entry, client.identity());
    WriteTarget.container(context, dn).add(entry);
    context.access().written(dn);
    client.ldap().send(Responses.success(request));
  }
}
