package io.rockds.server.schema;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.OperationalAttributes;
import io.rockds.server.ServerContext;
import io.rockds.server.WriteOutcome;
import io.rockds.server.WriteRecord;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.SearchResults;
import io.rockds.server.backend.SharedSettingsBackend;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;
import java.util.List;

/**
 * {@code cn=schema} as a naming context: the one subschema entry, readable by anyone as the root
 * DSE; a modify (under the ACIs) changes the schema; it cannot be added, deleted or renamed.
 */
public final class SchemaBackend implements SharedSettingsBackend {
  private final ServerSchema schema;

  public SchemaBackend(ServerSchema schema) {
    this.schema = schema;
  }

  @Override
  public List<DN> baseDns() {
    return List.of(SubschemaEntry.DN);
  }

  @Override
  public AccessRule readAccess() {
    return AccessRule.ANYONE;
  }

  @Override
  public Entry get(DN dn) {
    return dn.equals(SubschemaEntry.DN) ? schema.subschemaEntry() : null;
  }

  /** The subschema entry has no children: a one-level search finds nothing. */
  @Override
  public void search(DN base, SearchScope scope, SearchResults results) throws LDAPException {
    Entry entry = get(base);
    if (entry == null) {
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT, "The search base entry " + base + " does not exist");
    }
    if (scope == SearchScope.BASE || scope == SearchScope.SUB) {
      results.inScope(entry);
    }
  }

  @Override
  public Written add(Update update, Entry entry) throws LDAPException {
    DN dn = entry.getParsedDN();
    if (!dn.equals(SubschemaEntry.DN)) {
      throw DirectoryBackend.notHeld(dn);
    }
    throw new LDAPException(ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + dn + " already exists");
  }

  @Override
  public Written delete(Update update, DN dn) throws LDAPException {
    if (!dn.equals(SubschemaEntry.DN)) {
      throw DirectoryBackend.notHeld(dn);
    }
    throw new LDAPException(
        ResultCode.UNWILLING_TO_PERFORM, "The subschema entry cannot be deleted");
  }

  /**
   * A schema change is a settings record of the write path: in a replication group every server
   * applies it ({@link #applySettings}), so that each holds the same schema.
   */
  @Override
  public Written modify(Update update, DN dn, List<Modification> modifications)
      throws LDAPException {
    if (!dn.equals(SubschemaEntry.DN)) {
      throw DirectoryBackend.notHeld(dn);
    }
    ServerContext context = update.context();
    WriteRecord record =
        WriteRecord.ofSettings(
            update.identity().dn(), OperationalAttributes.now(), update.request());
    context.writes().commit(record, context.applier());
    return Written.DONE;
  }

  @Override
  public WriteOutcome applySettings(WriteRecord record) throws LDAPException {
    schema.modify(modificationsOf(record));
    return WriteOutcome.applied(null);
  }

  @Override
  public void checkSettings(WriteRecord record) throws LDAPException {
    schema.check(modificationsOf(record));
  }

  private static List<Modification> modificationsOf(WriteRecord record) throws LDAPException {
    if (record.request().getProtocolOpType() != LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST
        || !record.targetDn().equals(SubschemaEntry.DN)) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "Only a modify of " + SubschemaEntry.DN + " changes the schema");
    }
    return record.request().getModifyRequestProtocolOp().getModifications();
  }

  @Override
  public Written rename(Update update, DN dn, DN newDn) throws LDAPException {
    throw new LDAPException(
        ResultCode.UNWILLING_TO_PERFORM, "The entry " + dn + " cannot be renamed");
  }
}
