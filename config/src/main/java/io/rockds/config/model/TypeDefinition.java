package io.rockds.config.model;

import java.util.List;

/**
 * A concrete kind of an object, chosen with {@code dsconfig --type} (e.g. {@code file-based-access}
 * for a log publisher), marked by its object class and adding its own properties.
 */
public record TypeDefinition(String name, String objectClass, List<PropertyDefinition> properties) {
  public TypeDefinition {
    properties = List.copyOf(properties);
  }
}
