package io.rockds.config.model;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.RDN;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * A kind of configuration object ({@code backend}, {@code log-publisher}, ...): its entries' object
 * class, where they live and how they are named, its types and properties.
 *
 * @param name the dsconfig noun, e.g. {@code backend-index}
 * @param objectClass carried by every entry of this kind
 * @param namingAttribute the RDN attribute of an entry, e.g. {@code ds-cfg-backend-id}; null for a
 *     singleton such as {@code global-configuration}
 * @param nameOption the dsconfig option naming an instance, e.g. {@code --backend-name}
 * @param parent the kind this one lives under (an index under its backend), or null
 * @param container the DN of the entries' parent given the parent object's name (null when there is
 *     no parent)
 */
public record ObjectDefinition(
    String name,
    String objectClass,
    String namingAttribute,
    String nameOption,
    ObjectDefinition parent,
    Function<String, DN> container,
    List<TypeDefinition> types,
    List<PropertyDefinition> properties,
    String description) {

  public ObjectDefinition {
    types = List.copyOf(types);
    properties = List.copyOf(properties);
  }

  public boolean isSingleton() {
    return namingAttribute == null;
  }

  /** The DN of the instance named {@code name} under the parent named {@code parentName}. */
  public DN dnOf(String parentName, String instanceName) {
    return isSingleton()
        ? container.apply(parentName)
        : new DN(new RDN(namingAttribute, instanceName), container.apply(parentName));
  }

  /** The type an entry has, from its object classes; empty when none matches. */
  public Optional<TypeDefinition> typeOf(Entry entry) {
    return types.stream().filter(t -> entry.hasObjectClass(t.objectClass())).findFirst();
  }

  public Optional<TypeDefinition> type(String typeName) {
    return types.stream().filter(t -> t.name().equalsIgnoreCase(typeName)).findFirst();
  }

  /** The properties an instance of {@code type} has: the common ones, then the type's own. */
  public List<PropertyDefinition> properties(TypeDefinition type) {
    List<PropertyDefinition> all = new ArrayList<>(properties);
    if (type != null) {
      all.addAll(type.properties());
    }
    return all;
  }

  /** The property called {@code propertyName} for {@code type}, if the object has it. */
  public Optional<PropertyDefinition> property(TypeDefinition type, String propertyName) {
    String wanted = propertyName.toLowerCase(Locale.ROOT);
    return properties(type).stream().filter(p -> p.name().equals(wanted)).findFirst();
  }

  /** Names of the properties of {@code type}, for messages listing what is known. */
  public List<String> propertyNames(TypeDefinition type) {
    return properties(type).stream().map(PropertyDefinition::name).toList();
  }
}
