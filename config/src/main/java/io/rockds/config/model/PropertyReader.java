package io.rockds.config.model;

import com.unboundid.ldap.sdk.Entry;
import java.util.List;
import java.util.Locale;

/**
 * Typed reads of an entry the {@link EntryValidator} has accepted, with the defaults of the model,
 * so that a default is written once: in {@link ConfigModel}.
 */
public final class PropertyReader {
  private final Entry entry;
  private final ObjectDefinition definition;
  private final TypeDefinition type;

  public PropertyReader(Entry entry, ObjectDefinition definition) {
    this.entry = entry;
    this.definition = definition;
    this.type = definition.typeOf(entry).orElse(null);
  }

  public TypeDefinition type() {
    return type;
  }

  /** The value, else the model's default; null when there is neither. */
  public String string(String property) {
    PropertyDefinition p =
        definition
            .property(type, property)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        definition.name() + " has no property " + property));
    String value = entry.getAttributeValue(p.attribute());
    return value != null ? value.trim() : p.defaultValue();
  }

  public List<String> strings(String property) {
    String[] values = entry.getAttributeValues("ds-cfg-" + property);
    return values == null ? List.of() : List.of(values);
  }

  public boolean bool(String property) {
    String value = string(property);
    return value != null && Boolean.TRUE.equals(Syntax.BooleanSyntax.parse(value));
  }

  /** The integer value, else the default; null when there is neither. */
  public Long integer(String property) {
    String value = string(property);
    return value == null ? null : Long.valueOf(value);
  }

  public String lowerCase(String property) {
    String value = string(property);
    return value == null ? null : value.toLowerCase(Locale.ROOT);
  }

  public long bytes(String property) {
    return Syntax.SIZE.parse(string(property));
  }

  public long millis(String property) {
    return Syntax.DURATION.parse(string(property));
  }
}
