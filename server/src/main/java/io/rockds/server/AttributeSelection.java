package io.rockds.server;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.ObjectClassDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.StoredEntry;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The attributes a search asked for (RFC 4511 section 4.5.1.8): none listed or {@code *} means all
 * user attributes, {@code +} all operational ones (RFC 3673), {@code 1.1} none, {@code @oc} the
 * attributes of an object class (RFC 4529), otherwise names (options and subtypes included: {@code
 * cn} returns {@code cn;lang-fr}).
 */
final class AttributeSelection {
  private final boolean allUser;
  private final boolean allOperational;

  /** Lower-case base names, in the order requested. */
  private final Set<String> names = new LinkedHashSet<>();

  private final Schema schema;
  private final OperationalTypes operationalTypes;

  AttributeSelection(List<String> requested, Schema schema) {
    this.schema = schema;
    this.operationalTypes = OperationalTypes.of(schema);
    boolean user = requested.isEmpty();
    boolean operational = false;
    for (String r : requested) {
      String a = r.trim();
      if (a.equals("*")) {
        user = true;
      } else if (a.equals("+")) {
        operational = true;
      } else if (a.equals("1.1")) {
        continue;
      } else if (a.startsWith("@")) {
        addObjectClass(a.substring(1));
      } else {
        addName(a);
      }
    }
    this.allUser = user;
    this.allOperational = operational;
  }

  private void addObjectClass(String name) {
    ObjectClassDefinition oc = schema.getObjectClass(name);
    if (oc != null) {
      oc.getRequiredAttributes(schema, true).forEach(t -> addName(t.getNameOrOID()));
      oc.getOptionalAttributes(schema, true).forEach(t -> addName(t.getNameOrOID()));
    }
  }

  private void addName(String name) {
    String base = baseName(name);
    names.add(base);
    AttributeTypeDefinition type = schema.getAttributeType(base);
    if (type != null) {
      for (String alias : type.getNames()) {
        names.add(alias.toLowerCase(Locale.ROOT));
      }
      names.add(type.getOID());
      for (AttributeTypeDefinition sub : schema.getSubordinateAttributeTypes(type)) {
        for (String alias : sub.getNames()) {
          names.add(alias.toLowerCase(Locale.ROOT));
        }
      }
    }
  }

  private static String baseName(String description) {
    int semi = description.indexOf(';');
    return (semi < 0 ? description : description.substring(0, semi)).toLowerCase(Locale.ROOT);
  }

  /** True if the attribute was named explicitly (operational attributes need that or "+"). */
  boolean isNamed(String attribute) {
    return names.contains(baseName(attribute));
  }

  /** {@link #isNamed} for a base name already in lower case, without options. */
  boolean isNamedLowerCase(String lowerCaseBaseName) {
    return names.contains(lowerCaseBaseName);
  }

  /** True for {@code 1.1} alone: the entries' DNs, no attribute. */
  boolean selectsNone() {
    return !allUser && !allOperational && names.isEmpty();
  }

  /**
   * True when every user or every operational attribute is selected: no name list bounds the
   * selection.
   */
  boolean selectsAll() {
    return allUser || allOperational;
  }

  boolean wantsAllOperational() {
    return allOperational;
  }

  /** True when an attribute of this description is to be returned. */
  boolean includes(String description) {
    if (allUser && allOperational || !names.isEmpty() && names.contains(baseName(description))) {
      return true;
    }
    return operationalTypes.isOperational(description) ? allOperational : allUser;
  }

  /** The selected attributes of {@code entry}, values dropped when {@code typesOnly}. */
  List<Attribute> select(Entry entry, boolean typesOnly) {
    List<Attribute> out = new ArrayList<>();
    if (!allUser
        && !allOperational
        && entry instanceof StoredEntry stored
        && !stored.hasAttributeOptions()) {
      // Only named attributes: a lookup per name instead of a walk over every attribute of the
      // entry.
      for (String name : names) {
        Attribute a = entry.getAttribute(name);
        if (a != null) {
          out.add(typesOnly ? new Attribute(a.getName()) : a);
        }
      }
      return out;
    }
    for (Attribute a : entry.getAttributes()) {
      if (includes(a.getName())) {
        out.add(typesOnly ? new Attribute(a.getName()) : a);
      }
    }
    return out;
  }
}
