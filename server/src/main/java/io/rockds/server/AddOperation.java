package io.rockds.server;

import io.rockds.config.ConfigDns;

import com.unboundid.ldap.protocol.AddRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.ObjectClassDefinition;
import io.rockds.server.schema.SchemaChecker;
import io.rockds.server.schema.SubschemaEntry;
import io.rockds.server.task.TaskBackend;
import io.rockds.storage.EntryContainer;

/**
 * An add (RFC 4511 section 4.7): access, schema (the RDN values are added to the entry when
 * missing, as OpenLDAP does), controls, operational attributes, then one storage batch that also
 * refuses an existing entry (68) or a missing parent (32 with the matchedDN).
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
    if (TaskBackend.isTasks(dn)) { // authorized by privilege, as cn=config; no ACI applies
      context.tasks().add(client.identity(), new Entry(dn, add.getAttributes()));
      client.ldap().send(Responses.result(request, ResultCode.SUCCESS, null));
      return;
    }
    context.access().checkAdd(client, new Entry(dn, add.getAttributes()));
    if (ConfigDns.isConfig(dn)) {
      Entry config = new Entry(dn, add.getAttributes());
      PasswordValues.hash(config, context.passwords());
      client.ldap().send(Responses.result(request, ResultCode.SUCCESS,
          context.configBackend().add(client.identity(), config)));
      return;
    }
    if (dn.equals(SubschemaEntry.DN)) {
      throw new LDAPException(ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + dn + " already exists");
    }
    WriteControls controls = new WriteControls(request, context.schema(), client.identity());
    SchemaChecker checker = context.serverSchema().checker();
    Entry entry = new Entry(dn, add.getAttributes());
    for (Attribute attribute : add.getAttributes()) {
      checker.checkUserModifiable(attribute.getBaseName());
      checker.checkValues(attribute);
    }
    addRdnValues(entry, checker);
    ObjectClassDefinition structural = checker.check(entry);
    checker.addSuperiorClasses(entry);
    controls.checkAssertion(entry);
    EntryContainer container = WriteTarget.container(context, dn);
    if (controls.noOp()) {
      checkAddable(container, dn);
      throw controls.noOperation();
    }
    PasswordValues.hash(entry, context.passwords());
    OperationalAttributes.onAdd(entry, client.identity(), structural);
    container.add(entry);
    context.access().written(dn);
    client.ldap().send(Responses.result(request, ResultCode.SUCCESS, null, null, controls.readControls(null, entry)));
  }

  /** RFC 4512 section 2.3.1 wants the RDN values in the entry; like OpenLDAP we add them. */
  private static void addRdnValues(Entry entry, SchemaChecker checker) throws LDAPException {
    RDN rdn = entry.getParsedDN().getRDN();
    if (rdn == null) {
      return;
    }
    String[] names = rdn.getAttributeNames();
    byte[][] values = rdn.getByteArrayAttributeValues();
    for (int i = 0; i < names.length; i++) {
      if (!entry.hasAttributeValue(names[i], values[i], checker.matchingRule(names[i]))) {
        entry.addAttribute(names[i], values[i]);
      }
    }
  }

  /** What storage would refuse, checked without writing (for the no-op control). */
  private static void checkAddable(EntryContainer container, DN dn) throws LDAPException {
    if (container.idOf(dn) >= 0) {
      throw new LDAPException(ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + dn + " already exists");
    }
    DN parent = dn.getParent();
    if (!dn.equals(container.baseDn()) && container.idOf(parent) < 0) {
      DN matched = container.matchedDn(dn);
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The parent entry " + parent + " does not exist",
          matched == null ? null : matched.toString(), null);
    }
  }
}
