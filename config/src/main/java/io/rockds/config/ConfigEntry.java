package io.rockds.config;

import com.unboundid.ldap.sdk.Entry;
import java.util.List;

/**
 * A configuration entry as the typed records read it: its name and raw values. Typed reads with the
 * model's defaults are {@link io.rockds.config.model.PropertyReader}'s; validation naming the
 * property is {@link io.rockds.config.model.EntryValidator}'s.
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
    return property.startsWith("ds-") || property.equals("userPassword")
        ? property
        : "ds-cfg-" + property;
  }

  /**
   * The values of {@code ds-cfg-<property>} (or of a {@code ds-*} / userPassword attribute named as
   * is).
   */
  public List<String> strings(String property) {
    String[] values = entry.getAttributeValues(attr(property));
    return values == null ? List.of() : List.of(values);
  }

  /** The value of the entry's RDN, e.g. {@code LDAP Connection Handler}: the object's name. */
  public String name() {
    try {
      return entry.getParsedDN().getRDN().getAttributeValues()[0];
    } catch (com.unboundid.ldap.sdk.LDAPException e) {
      throw new IllegalStateException("configuration entries have parsed DNs", e);
    }
  }
}
