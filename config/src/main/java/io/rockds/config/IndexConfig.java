package io.rockds.config;

import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * A backend index ({@code ds-cfg-attribute=<attr>,cn=Index,ds-cfg-backend-id=<id>,...}); defaults
 * and descriptions are in {@link ConfigModel#BACKEND_INDEX}.
 *
 * @param attribute the indexed attribute
 * @param types index-type values: equality, presence, substring, ordering, approximate
 * @param entryLimit index-entry-limit override, or null to inherit the backend's
 * @param substringLength substring-length (default 6, minimum 3)
 */
public record IndexConfig(
    String attribute, Set<String> types, Integer entryLimit, int substringLength) {

  /** Reads an entry the model's validation accepted. */
  static IndexConfig from(ConfigEntry e) {
    PropertyReader r = new PropertyReader(e.entry(), ConfigModel.BACKEND_INDEX);
    Set<String> types = new LinkedHashSet<>();
    r.strings("index-type").forEach(t -> types.add(t.trim().toLowerCase(Locale.ROOT)));
    Long limit = r.integer("index-entry-limit");
    return new IndexConfig(
        r.string("attribute"),
        types,
        limit == null ? null : limit.intValue(),
        r.integer("substring-length").intValue());
  }
}
