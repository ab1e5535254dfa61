package io.rockds.server;

import io.rockds.config.ConfigDns;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.ObjectClassDefinition;
import io.rockds.server.schema.ModificationApplier;
import io.rockds.server.schema.SchemaChecker;
import io.rockds.server.schema.SubschemaEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * A modify (RFC 4511 section 4.6, increment RFC 4525): all modifications apply or none does, in
 * one storage batch, with no other write of the entry in between. The result is schema-checked
 * as a whole; a change of the structural object class is objectClassModsProhibited (69) and
 * removing an RDN value notAllowedOnRDN (67), as OpenDJ and 389 DS answer (OpenLDAP says 64).
 * A modify of {@code cn=schema} changes the schema.
 */
final class ModifyOperation {
  private static final String INTEGER_SYNTAX = "1.3.6.1.4.1.1466.115.121.1.27";

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
    if (dn.equals(SubschemaEntry.DN)) {
      context.access().checkModify(client, dn, requested);
      context.serverSchema().modify(requested);
      client.ldap().send(Responses.success(request));
      return;
    }
    context.access().checkModify(client, dn, requested);
    if (ConfigDns.isConfig(dn)) {
      List<Modification> hashed = new ArrayList<>(requested.size());
      for (Modification m : requested) {
        hashed.add(PasswordValues.hash(m, context.passwords()));
      }
      client.ldap().send(Responses.result(request, ResultCode.SUCCESS,
          context.configBackend().modify(client.identity(), dn, hashed)));
      return;
    }
    WriteControls controls = new WriteControls(request, context.schema(), client.identity());
    SchemaChecker checker = context.serverSchema().checker();
    List<Modification> modifications = new ArrayList<>(requested.size());
    for (Modification m : requested) {
      AttributeTypeDefinition type = checker.type(m.getAttribute().getBaseName());
      checker.checkUserModifiable(m.getAttribute().getBaseName());
      if (m.getModificationType() != ModificationType.DELETE) {
        checker.checkValues(m.getAttribute());
      }
      if (m.getModificationType() == ModificationType.INCREMENT
          && !INTEGER_SYNTAX.equals(type.getBaseSyntaxOID(context.schema()))) {
        throw new LDAPException(ResultCode.CONSTRAINT_VIOLATION,
            m.getAttributeName() + ": attribute syntax inappropriate for increment");
      }
      modifications.add(PasswordValues.hash(m, context.passwords()));
    }
    modifications.addAll(context.passwordPolicy().stateChanges(client, dn, requested));
    Entry[] before = {null};
    Entry after = WriteTarget.container(context, dn).modify(dn, current -> {
      controls.checkAssertion(current);
      Entry updated = new ModificationApplier(checker).apply(current, modifications, controls.permissiveModify());
      checkRdnKept(updated, checker);
      ObjectClassDefinition was = checker.structuralOf(current);
      ObjectClassDefinition is = checker.structuralOf(updated);
      if (was != null && is != null && !was.equals(is)) {
        throw new LDAPException(ResultCode.OBJECT_CLASS_MODS_PROHIBITED, "structural object class modification from '"
            + was.getNameOrOID() + "' to '" + is.getNameOrOID() + "' not allowed");
      }
      checker.check(updated, newValues(dn, modifications));
      checker.addSuperiorClasses(updated);
      if (controls.noOp()) {
        throw controls.noOperation();
      }
      OperationalAttributes.onModify(updated, client.identity());
      before[0] = current;
      return updated;
    });
    context.access().written(dn);
    client.ldap().send(Responses.result(request, ResultCode.SUCCESS, null, null,
        controls.readControls(before[0], after)));
  }

  /** The values the modifications bring, the only ones whose syntax needs checking. */
  private static Entry newValues(DN dn, List<Modification> modifications) {
    Entry values = new Entry(dn);
    for (Modification m : modifications) {
      if (m.getModificationType() != ModificationType.DELETE && m.hasValue()) {
        values.addAttribute(m.getAttribute());
      }
    }
    return values;
  }

  private static void checkRdnKept(Entry entry, SchemaChecker checker) throws LDAPException {
    RDN rdn = entry.getParsedDN().getRDN();
    String[] names = rdn.getAttributeNames();
    byte[][] values = rdn.getByteArrayAttributeValues();
    for (int i = 0; i < names.length; i++) {
      if (!entry.hasAttributeValue(names[i], values[i], checker.matchingRule(names[i]))) {
        throw new LDAPException(ResultCode.NOT_ALLOWED_ON_RDN,
            "the modification would remove the value of the naming attribute '" + names[i] + "' of " + entry.getDN());
      }
    }
  }
}
