package io.rockds.tools.dsconfig;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import io.rockds.config.ConfigException;
import io.rockds.config.model.ObjectDefinition;
import io.rockds.config.model.PropertyDefinition;
import io.rockds.config.model.TypeDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --set}, {@code --add}, {@code --remove} and {@code --reset} arguments of one
 * subcommand, checked against the properties of the object's type and turned into attribute values
 * (create) or modifications (set). Values are validated by the server, which names the property in
 * its refusal; here only the property names are checked, to list the known ones.
 */
final class PropertyArguments {
  private final ObjectDefinition definition;
  private final TypeDefinition type;

  PropertyArguments(ObjectDefinition definition, TypeDefinition type) {
    this.definition = definition;
    this.type = type;
  }

  /** {@code property:value} arguments grouped by property, values in order. */
  Map<PropertyDefinition, List<String>> values(String option, List<String> arguments)
      throws ConfigException {
    Map<PropertyDefinition, List<String>> out = new LinkedHashMap<>();
    for (String argument : arguments) {
      int colon = argument.indexOf(':');
      if (colon <= 0) {
        throw new ConfigException(
            option
                + " "
                + argument
                + ": expected PROPERTY:VALUE, e.g. "
                + option
                + " enabled:true");
      }
      PropertyDefinition property = property(argument.substring(0, colon).trim());
      out.computeIfAbsent(property, p -> new ArrayList<>())
          .add(argument.substring(colon + 1).trim());
    }
    for (Map.Entry<PropertyDefinition, List<String>> e : out.entrySet()) {
      if (e.getValue().size() > 1 && !e.getKey().multiValued()) {
        throw new ConfigException(
            "the property "
                + e.getKey().name()
                + " takes a single value, given "
                + e.getValue().size());
      }
    }
    return out;
  }

  PropertyDefinition property(String name) throws ConfigException {
    return definition
        .property(type, name)
        .orElseThrow(
            () ->
                new ConfigException(
                    "the "
                        + definition.name()
                        + (type == null || definition.types().size() < 2
                            ? ""
                            : " of type " + type.name())
                        + " has no property \""
                        + name
                        + "\" (known: "
                        + String.join(", ", definition.propertyNames(type))
                        + ")"));
  }

  /** The attributes of a new object: the {@code --set} values. */
  List<Attribute> attributes(List<String> set) throws ConfigException {
    List<Attribute> out = new ArrayList<>();
    values("--set", set).forEach((p, v) -> out.add(new Attribute(p.attribute(), v)));
    return out;
  }

  /** The modifications of {@code set-…-prop} on {@code current}. */
  List<Modification> modifications(
      Entry current, List<String> set, List<String> add, List<String> remove, List<String> reset)
      throws ConfigException {
    List<Modification> out = new ArrayList<>();
    for (String name : reset) {
      PropertyDefinition p = changeable(property(name.trim()));
      if (current.hasAttribute(p.attribute())) {
        out.add(new Modification(ModificationType.DELETE, p.attribute()));
      }
    }
    for (Map.Entry<PropertyDefinition, List<String>> e : values("--set", set).entrySet()) {
      out.add(
          new Modification(
              ModificationType.REPLACE,
              changeable(e.getKey()).attribute(),
              e.getValue().toArray(String[]::new)));
    }
    for (Map.Entry<PropertyDefinition, List<String>> e : values("--add", add).entrySet()) {
      out.add(
          new Modification(
              ModificationType.ADD,
              changeable(e.getKey()).attribute(),
              e.getValue().toArray(String[]::new)));
    }
    for (Map.Entry<PropertyDefinition, List<String>> e : values("--remove", remove).entrySet()) {
      out.add(
          new Modification(
              ModificationType.DELETE,
              changeable(e.getKey()).attribute(),
              e.getValue().toArray(String[]::new)));
    }
    if (out.isEmpty() && reset.isEmpty()) {
      throw new ConfigException("nothing to change: give --set, --add, --remove or --reset");
    }
    return out;
  }

  private static PropertyDefinition changeable(PropertyDefinition p) throws ConfigException {
    if (p.readOnly()) {
      throw new ConfigException(
          "the property " + p.name() + " is read-only: it is set when the object is created");
    }
    return p;
  }
}
