package io.rockds.tools.ldif;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.Identity;
import io.rockds.server.OperationalAttributes;
import io.rockds.server.PasswordValues;
import io.rockds.server.schema.SchemaChecker;
import io.rockds.server.security.policy.PasswordPolicies;
import io.rockds.storage.importer.EntryTransformer;
import java.util.Set;

/**
 * Prepares an imported entry as an LDAP add would: checked against the schema (unless the import
 * skips schema validation), superior object classes added, clear-text passwords hashed with the
 * storage scheme of the password policy governing the entry, operational attributes stamped. Values
 * the LDIF already carries (entryUUID, createTimestamp of an export) are kept, so export → import
 * preserves them, as OpenDJ does. A refusal rejects the entry with the reason.
 */
final class ServerEntryPreparation implements EntryTransformer {
  private final PasswordPolicies policies;

  /** Null when the import skips schema validation. */
  private final SchemaChecker checker;

  private final Identity importer;

  ServerEntryPreparation(DN importedBy, PasswordPolicies policies, SchemaChecker checker) {
    this.importer = new Identity(importedBy, true, Set.of());
    this.policies = policies;
    this.checker = checker;
  }

  @Override
  public Entry transform(Entry entry) throws LDAPException {
    Entry prepared = entry.duplicate();
    if (checker != null) {
      for (Attribute attribute : entry.getAttributes()) {
        checker.type(attribute.getBaseName());
        checker.checkValues(attribute);
      }
      checker.check(entry);
    }
    OperationalAttributes.onAdd(prepared, importer);
    // Put back what the stamping replaced; the attributes it left alone are still the originals.
    for (Attribute original : entry.getAttributes()) {
      if (prepared.getAttribute(original.getName()) != original) {
        prepared.setAttribute(original);
      }
    }
    if (checker != null) {
      checker.addSuperiorClasses(prepared);
    }
    PasswordValues.hash(prepared, policies.schemesFor(prepared));
    return prepared;
  }
}
