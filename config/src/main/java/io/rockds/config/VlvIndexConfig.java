package io.rockds.config;

import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;

/**
 * A VLV index ({@code ds-cfg-name=<name>,cn=VLV Index,ds-cfg-backend-id=<id>,...}); descriptions
 * are in {@link ConfigModel#BACKEND_VLV_INDEX}.
 *
 * @param scope base-object, single-level, subordinate-subtree or whole-subtree
 * @param sortOrder e.g. {@code +sn +givenName}
 */
public record VlvIndexConfig(
    String name, String baseDn, String scope, String filter, String sortOrder) {

  /** Reads an entry the model's validation accepted. */
  static VlvIndexConfig from(ConfigEntry e) {
    PropertyReader r = new PropertyReader(e.entry(), ConfigModel.BACKEND_VLV_INDEX);
    return new VlvIndexConfig(
        r.string("name"),
        r.string("base-dn"),
        r.lowerCase("scope"),
        r.string("filter"),
        r.string("sort-order"));
  }
}
