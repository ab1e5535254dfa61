package io.rockds.config;

import com.unboundid.ldap.sdk.Entry;
import java.util.List;
import java.util.Locale;

/**
 * Typed reads of {@code ds-cfg-*} properties from one configuration entry. Every failure names
 * the property, its value and what was expected, e.g.
 * {@code ds-cfg-listen-port: "70000" (expected: an integer from 0 to 65535)}.
 */
public final class ConfigEntry {
  private final Entry entry;

  public ConfigEntry(Entry entry) {
    this.entry = entry;
  }

  public Entry entry() {
    return entry;
  }

  private static String attr(String property) {
    return property.startsWith("ds-") || property.equals("userPassword") ? property : "ds-cfg-" + property;
  }

  public String string(String property, String defaultValue) {
    String v = entry.getAttributeValue(attr(property));
    return v == null ? defaultValue : v;
  }

  public String requiredString(String property) throws ConfigException {
    String v = entry.getAttributeValue(attr(property));
    if (v == null || v.isBlank()) {
      throw new ConfigException(entry.getDN() + ": " + attr(property) + " is required");
    }
    return v;
  }

  public List<String> strings(String property) {
    String[] values = entry.getAttributeValues(attr(property));
    return values == null ? List.of() : List.of(values);
  }

  public long integer(String property, long defaultValue, long min, long max) throws ConfigException {
    String v = entry.getAttributeValue(attr(property));
    if (v == null) {
      return defaultValue;
    }
    try {
      long n = Long.parseLong(v.trim());
      if (n < min || n > max) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new ConfigException(entry.getDN() + ": " + attr(property) + ": \"" + v + "\" (expected: an integer from "
          + min + " to " + max + ")");
    }
  }

  public boolean bool(String property, boolean defaultValue) throws ConfigException {
    String v = entry.getAttributeValue(attr(property));
    if (v == null) {
      return defaultValue;
    }
    return switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on", "1" -> true;
      case "false", "no", "off", "0" -> false;
      default -> throw new ConfigException(entry.getDN() + ": " + attr(property) + ": \"" + v
          + "\" (expected: true or false)");
    };
  }

  /** The value of the entry's RDN, e.g. {@code LDAP Connection Handler}: the object's name. */
  public String name() {
    try {
      return entry.getParsedDN().getRDN().getAttributeValues()[0];
    } catch (com.unboundid.ldap.sdk.LDAPException e) {
      throw new IllegalStateException("configuration entries have parsed DNs", e);
    }
  }

  public boolean hasObjectClass(String objectClass) {
    return entry.hasObjectClass(objectClass);
  }
}
