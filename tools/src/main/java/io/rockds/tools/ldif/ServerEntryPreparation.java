package io.rockds.tools.ldif;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.Identity;
import io.rockds.server.OperationalAttributes;
import io.rockds.server.PasswordValues;
import io.rockds.server.security.password.PasswordSchemeSettings;
import io.rockds.server.security.password.PasswordSchemes;
import io.rockds.storage.importer.EntryTransformer;
import java.util.Set;

/**
 * Prepares an imported entry as an LDAP add would: clear-text passwords hashed with the server's
 * default scheme, operational attributes stamped. Values the LDIF already carries (entryUUID,
 * createTimestamp of an export) are kept, so export → import preserves them, as OpenDJ does.
 */
final class ServerEntryPreparation implements EntryTransformer {
  private final PasswordSchemes passwords = new PasswordSchemes(PasswordSchemeSettings.defaults());
  private final Identity importer;

  ServerEntryPreparation(DN importedBy) {
    this.importer = new Identity(importedBy, true, Set.of());
  }

  @Override
  public Entry transform(Entry entry) throws LDAPException {
    Entry prepared = entry.duplicate();
    OperationalAttributes.onAdd(prepared, importer);
    // Put back what the stamping replaced; the attributes it left alone are still the originals.
    for (Attribute original : entry.getAttributes()) {
      if (prepared.getAttribute(original.getName()) != original) {
        prepared.setAttribute(original);
      }
    }
    PasswordValues.hash(prepared, passwords);
    return prepared;
  }
}
