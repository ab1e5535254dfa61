package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;
import java.util.ArrayList;
import java.util.List;

/**
 * The referential integrity plugin ({@code cn=Referential Integrity,cn=Plugins,cn=config});
 * properties in {@link ConfigModel#PLUGIN}.
 *
 * @param attributeTypes the attributes whose DN values follow deletes and renames
 * @param baseDns where referring entries are looked for; empty for every naming context
 */
public record ReferentialIntegrityConfig(
    boolean enabled, List<String> attributeTypes, List<DN> baseDns) {
  public static final List<String> DEFAULT_ATTRIBUTE_TYPES = List.of("member", "uniqueMember");
  public static final ReferentialIntegrityConfig DISABLED =
      new ReferentialIntegrityConfig(false, DEFAULT_ATTRIBUTE_TYPES, List.of());

  public ReferentialIntegrityConfig {
    attributeTypes = List.copyOf(attributeTypes);
    baseDns = List.copyOf(baseDns);
  }

  /** Reads a plugin entry the model's validation accepted; null reads as disabled. */
  static ReferentialIntegrityConfig from(Entry entry) throws ConfigException {
    if (entry == null) {
      return DISABLED;
    }
    PropertyReader r = new PropertyReader(entry, ConfigModel.PLUGIN);
    List<String> types = r.strings("attribute-type");
    List<DN> bases = new ArrayList<>();
    for (String base : r.strings("base-dn")) {
      try {
        bases.add(new DN(base));
      } catch (LDAPException e) {
        throw new ConfigException(entry.getDN() + ": ds-cfg-base-dn: " + e.getExceptionMessage());
      }
    }
    return new ReferentialIntegrityConfig(
        r.bool("enabled"), types.isEmpty() ? DEFAULT_ATTRIBUTE_TYPES : types, bases);
  }

  /** True when entries below {@code dn} are searched for references. */
  public boolean covers(DN dn) {
    return baseDns.isEmpty() || baseDns.stream().anyMatch(base -> dn.isDescendantOf(base, true));
  }
}
