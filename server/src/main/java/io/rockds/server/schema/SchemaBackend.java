package io.rockds.server.schema;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.SearchResults;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;
import java.util.List;

/**
 * {@code cn=schema} as a naming context: the one subschema entry, readable by anyone as the root
 * DSE; a modify (under the ACIs) changes the schema; it cannot be added, deleted or renamed.
 */
public final class SchemaBackend implements DirectoryBackend {
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

  @Override
  public Written modify(Update update, DN dn, List<Modification> modifications)
      throws LDAPException {
    if (!dn.equals(SubschemaEntry.DN)) {
      throw DirectoryBackend.notHeld(dn);
    }
    schema.modify(modifications);
    return Written.DONE;
  }

  @Override
  public Written rename(Update update, DN dn, DN newDn) throws LDAPException {
    throw new LDAPException(
        ResultCode.UNWILLING_TO_PERFORM, "The entry " + dn + " cannot be renamed");
  }
}
