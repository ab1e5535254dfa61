package io.rockds.config.model;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks one configuration entry against the {@link ConfigModel}: every {@code ds-cfg-*} attribute
 * must be a property of the object's type, with values its syntax accepts, and the mandatory
 * properties must be present. Each problem names the property, the value and what was expected,
 * e.g. {@code ds-cfg-index-entry-limit: "lots" (expected: an integer of at least 0)}.
 */
public final class EntryValidator {

  /**
   * One problem in an entry.
   *
   * @param attribute the attribute at fault, or null when the entry as a whole is wrong
   */
  public record Violation(String attribute, String message) {}

  private EntryValidator() {}

  /** The problems of {@code entry}; empty when it is valid or is not a modelled object. */
  public static List<Violation> violations(Entry entry) {
    Optional<ObjectDefinition> found = ConfigModel.definitionOf(entry);
    if (found.isEmpty()) {
      return List.of();
    }
    ObjectDefinition definition = found.get();
    List<Violation> out = new ArrayList<>();
    TypeDefinition type = definition.typeOf(entry).orElse(null);
    if (type == null && !definition.types().isEmpty()) {
      out.add(
          new Violation(
              "objectClass",
              "objectClass: a "
                  + definition.name()
                  + " needs one of the object classes "
                  + definition.types().stream().map(TypeDefinition::objectClass).toList()));
      return out;
    }
    for (Attribute attribute : entry.getAttributes()) {
      String name = PropertyDefinition.propertyOf(attribute.getBaseName());
      if (name == null) {
        continue;
      }
      Optional<PropertyDefinition> property = definition.property(type, name);
      if (property.isEmpty()) {
        out.add(
            new Violation(
                attribute.getName(),
                attribute.getName()
                    + ": not a property of a "
                    + definition.name()
                    + (type == null ? "" : " of type " + type.name())
                    + " (known: "
                    + String.join(", ", definition.propertyNames(type))
                    + ")"));
        continue;
      }
      check(property.get(), attribute, out);
    }
    for (PropertyDefinition p : definition.properties(type)) {
      if (p.mandatory() && !entry.hasAttribute(p.attribute())) {
        out.add(new Violation(p.attribute(), p.attribute() + " is required"));
      }
    }
    return out;
  }

  private static void check(PropertyDefinition property, Attribute attribute, List<Violation> out) {
    String[] values = attribute.getValues();
    if (values.length > 1 && !property.multiValued()) {
      out.add(
          new Violation(
              attribute.getName(),
              property.attribute() + ": " + values.length + " values (expected: a single value)"));
    }
    for (String value : values) {
      if (!property.syntax().accepts(value)) {
        out.add(new Violation(attribute.getName(), property.rejection(value)));
      }
    }
  }
}
