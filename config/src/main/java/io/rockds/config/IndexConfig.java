package io.rockds.config;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * A backend index ({@code ds-cfg-attribute=<attr>,cn=Index,ds-cfg-backend-id=<id>,...}).
 *
 * @param attribute the indexed attribute
 * @param types index-type values: equality, presence, substring, ordering, approximate
 * @param entryLimit index-entry-limit override, or null to inherit the backend's
 * @param substringLength substring-length (default 6, minimum 3)
 */
public record IndexConfig(String attribute, Set<String> types, Integer entryLimit, int substringLength) {
  static final Set<String> TYPES = Set.of("equality", "presence", "substring", "ordering", "approximate");

  static IndexConfig from(ConfigEntry e) throws ConfigException {
    Set<String> types = new LinkedHashSet<>();
    for (String t : e.strings("index-type")) {
      String type = t.trim().toLowerCase(Locale.ROOT);
      if (!TYPES.contains(type)) {
        throw new ConfigException(e.entry().getDN() + ": ds-cfg-index-type: \"" + t
            + "\" (expected: equality, presence, substring, ordering or approximate)");
      }
      types.add(type);
    }
    if (types.isEmpty()) {
      throw new ConfigException(e.entry().getDN() + ": ds-cfg-index-type is required");
    }
    String limit = e.string("index-entry-limit", null);
    return new IndexConfig(e.requiredString("attribute"), types,
        limit == null ? null : (int) e.integer("index-entry-limit", 0, 0, Integer.MAX_VALUE),
        (int) e.integer("substring-length", 6, 3, 64));
  }
}
