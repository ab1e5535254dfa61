package io.rockds.config;

import io.rockds.config.model.PropertyReader;

/**
 * Defensive limits on what one request may ask of the server, and server-wide connection handling,
 * from {@code cn=config}. Every limit has a safe default; 0 is never "unlimited" here, because each
 * exists to bound work a hostile client can cause.
 *
 * @param maxConnections client connections open at once over all listeners (0 = no limit)
 * @param maxFilterDepth nesting of and/or/not in a search filter
 * @param maxFilterComponents filter components in total, at any depth
 * @param maxSubstringComponents subInitial/subAny/subFinal parts of one substring filter
 * @param maxAddAttributes attributes in one add request
 * @param maxAddValues values, over all attributes, in one add request
 * @param maxRequestedAttributes attributes a search may list
 * @param shutdownGraceSeconds how long a stopping server lets running operations finish
 * @param maxDnLength characters of a DN a request names (entry, base, bind, new superior)
 * @param maxDnRdns RDNs of such a DN
 */
public record RequestLimitsConfig(
    int maxConnections,
    int maxFilterDepth,
    int maxFilterComponents,
    int maxSubstringComponents,
    int maxAddAttributes,
    int maxAddValues,
    int maxRequestedAttributes,
    int shutdownGraceSeconds,
    int maxDnLength,
    int maxDnRdns) {

  public static final RequestLimitsConfig DEFAULTS =
      new RequestLimitsConfig(0, 32, 1024, 32, 1000, 100_000, 1000, 10, 8192, 128);

  static RequestLimitsConfig from(PropertyReader r) {
    return new RequestLimitsConfig(
        r.integer("max-connections").intValue(),
        r.integer("max-filter-depth").intValue(),
        r.integer("max-filter-components").intValue(),
        r.integer("max-substring-components").intValue(),
        r.integer("max-add-attributes").intValue(),
        r.integer("max-add-values").intValue(),
        r.integer("max-requested-attributes").intValue(),
        r.integer("shutdown-grace-period").intValue(),
        r.integer("max-dn-length").intValue(),
        r.integer("max-dn-rdns").intValue());
  }
}
