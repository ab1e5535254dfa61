package io.rockds.server.schema;

import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies a modify's changes with each attribute's equality rule (RFC 4511 section 4.6), where the
 * SDK's {@code Entry.applyModifications} compares values as case-ignore strings whatever the schema
 * says: a value to delete matches a stored value written in another form equal under the rule
 * ({@code +1-555-0100} deletes {@code +1 555 0100}; {@code /home/u7} does not delete the
 * caseExactIA5 {@code /home/U7}), and a value to add that the attribute already holds in any equal
 * form is attributeOrValueExists (20). Under the permissive modify control both are left out
 * instead. Replace and increment are the SDK's.
 */
public final class ModificationApplier {
  private final SchemaChecker checker;

  public ModificationApplier(SchemaChecker checker) {
    this.checker = checker;
  }

  /**
   * {@code current} with {@code modifications} applied, in order; {@code current} is not changed.
   */
  public Entry apply(Entry current, List<Modification> modifications, boolean permissive)
      throws LDAPException {
    Entry entry = current.duplicate();
    for (Modification m : modifications) {
      ModificationType kind = m.getModificationType();
      if (kind == ModificationType.ADD) {
        add(entry, m, permissive);
      } else if (kind == ModificationType.DELETE && m.hasValue()) {
        delete(entry, m, permissive);
      } else {
        entry = Entry.applyModifications(entry, permissive, List.of(m));
      }
    }
    return entry;
  }

  private void add(Entry entry, Modification m, boolean permissive) throws LDAPException {
    Attribute stored = entry.getAttribute(m.getAttributeName());
    MatchingRule rule = checker.matchingRule(m.getAttribute().getBaseName());
    Set<String> keys = new HashSet<>();
    List<byte[]> values = new ArrayList<>();
    if (stored != null) {
      for (byte[] value : stored.getValueByteArrays()) {
        keys.add(SchemaChecker.normalized(rule, value));
        values.add(value);
      }
    }
    byte[][] added = m.getValueByteArrays();
    for (int i = 0; i < added.length; i++) {
      if (keys.add(SchemaChecker.normalized(rule, added[i]))) {
        values.add(added[i]);
      } else if (!permissive) {
        throw new LDAPException(
            ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
            "modify/add: " + m.getAttributeName() + ": value #" + i + " already exists");
      }
    }
    if (!values.isEmpty()) {
      entry.setAttribute(
          new Attribute(
              stored != null ? stored.getName() : m.getAttributeName(),
              values.toArray(byte[][]::new)));
    }
  }

  private void delete(Entry entry, Modification m, boolean permissive) throws LDAPException {
    Attribute stored = entry.getAttribute(m.getAttributeName());
    if (stored == null) {
      if (permissive) {
        return;
      }
      throw new LDAPException(
          ResultCode.NO_SUCH_ATTRIBUTE,
          "modify/delete: " + m.getAttributeName() + ": no such attribute");
    }
    MatchingRule rule = checker.matchingRule(m.getAttribute().getBaseName());
    byte[][] storedValues = stored.getValueByteArrays();
    Map<String, Integer> indexByKey = new HashMap<>();
    for (int i = 0; i < storedValues.length; i++) {
      indexByKey.putIfAbsent(SchemaChecker.normalized(rule, storedValues[i]), i);
    }
    Set<Integer> removed = new HashSet<>();
    byte[][] deleted = m.getValueByteArrays();
    for (int i = 0; i < deleted.length; i++) {
      Integer index = indexByKey.get(SchemaChecker.normalized(rule, deleted[i]));
      if ((index == null || !removed.add(index)) && !permissive) {
        throw new LDAPException(
            ResultCode.NO_SUCH_ATTRIBUTE,
            "modify/delete: " + m.getAttributeName() + ": no such value");
      }
    }
    List<byte[]> kept = new ArrayList<>();
    for (int i = 0; i < storedValues.length; i++) {
      if (!removed.contains(i)) {
        kept.add(storedValues[i]);
      }
    }
    if (kept.isEmpty()) {
      entry.removeAttribute(stored.getName());
    } else {
      entry.setAttribute(new Attribute(stored.getName(), kept.toArray(byte[][]::new)));
    }
  }

  /**
   * After a modify DN, the RDN values as the new RDN writes them: renaming {@code uid=u10} to
   * {@code uid=U10} stores {@code U10}, the value equal under the rule being replaced.
   */
  public void takeRdnForm(Entry entry) throws LDAPException {
    RDN rdn = entry.getParsedDN().getRDN();
    String[] names = rdn.getAttributeNames();
    byte[][] values = rdn.getByteArrayAttributeValues();
    for (int i = 0; i < names.length; i++) {
      Attribute stored = entry.getAttribute(names[i]);
      if (stored == null) {
        continue;
      }
      MatchingRule rule = checker.matchingRule(names[i]);
      String key = SchemaChecker.normalized(rule, values[i]);
      List<byte[]> rewritten = new ArrayList<>();
      for (byte[] value : stored.getValueByteArrays()) {
        rewritten.add(SchemaChecker.normalized(rule, value).equals(key) ? values[i] : value);
      }
      entry.setAttribute(new Attribute(stored.getName(), rewritten.toArray(byte[][]::new)));
    }
  }
}
