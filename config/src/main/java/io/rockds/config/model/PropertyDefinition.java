package io.rockds.config.model;

import java.util.Locale;

/**
 * One property of a configuration object, stored as the attribute {@code ds-cfg-<name>}.
 *
 * @param defaultValue used when the entry has no value; null when there is none (the description
 *     says what happens then)
 * @param readOnly set when the object is created (its naming property), never changed after
 */
public record PropertyDefinition(
    String name,
    Syntax syntax,
    String defaultValue,
    boolean multiValued,
    boolean mandatory,
    boolean readOnly,
    ApplyMode apply,
    String description) {

  public PropertyDefinition {
    if (defaultValue != null && !syntax.accepts(defaultValue)) {
      throw new IllegalArgumentException(
          name + ": default \"" + defaultValue + "\" (expected: " + syntax.expected() + ")");
    }
  }

  /** A single-valued, optional, changeable property. */
  public static PropertyDefinition of(
      String name, Syntax syntax, String defaultValue, ApplyMode apply, String description) {
    return new PropertyDefinition(
        name, syntax, defaultValue, false, false, false, apply, description);
  }

  public PropertyDefinition asMultiValued() {
    return new PropertyDefinition(
        name, syntax, defaultValue, true, mandatory, readOnly, apply, description);
  }

  public PropertyDefinition asMandatory() {
    return new PropertyDefinition(
        name, syntax, defaultValue, multiValued, true, readOnly, apply, description);
  }

  public PropertyDefinition asReadOnly() {
    return new PropertyDefinition(
        name, syntax, defaultValue, multiValued, true, true, apply, description);
  }

  /** The LDAP attribute holding the property. */
  public String attribute() {
    return "ds-cfg-" + name;
  }

  /** The property name of a {@code ds-cfg-*} attribute name, or null for other attributes. */
  public static String propertyOf(String attribute) {
    String lower = attribute.toLowerCase(Locale.ROOT);
    return lower.startsWith("ds-cfg-") ? lower.substring("ds-cfg-".length()) : null;
  }

  /**
   * The validation message for a bad value, naming the property: {@code index-entry-limit: "x"
   * (expected: ...)}.
   */
  public String rejection(String value) {
    return attribute() + ": \"" + value + "\" (expected: " + syntax.expected() + ")";
  }
}
