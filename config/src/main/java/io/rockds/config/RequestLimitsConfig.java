package io.rockds.config;

/**
 * Defensive limits on what one request may ask of the server, and server-wide connection
 * handling, from {@code cn=config}. Every limit has a safe default; 0 is never "unlimited" here,
 * because each exists to bound work a hostile client can cause.
 *
 * @param maxConnections client connections open at once over all listeners (0 = no limit)
 * @param maxFilterDepth nesting of and/or/not in a search filter
 * @param maxFilterComponents filter components in total, at any depth
 * @param maxSubstringComponents subInitial/subAny/subFinal parts of one substring filter
 * @param maxAddAttributes attributes in one add request
 * @param maxAddValues values, over all attributes, in one add request
 * @param maxRequestedAttributes attributes a search may list
 * @param shutdownGraceSeconds how long a stopping server lets running operations finish
 */
public record RequestLimitsConfig(
    int maxConnections,
    int maxFilterDepth,
    int maxFilterComponents,
    int maxSubstringComponents,
    int maxAddAttributes,
    int maxAddValues,
    int maxRequestedAttributes,
    int shutdownGraceSeconds) {

  public static final RequestLimitsConfig DEFAULTS = new RequestLimitsConfig(0, 32, 1024, 32, 1000, 100_000, 1000, 10);

  static RequestLimitsConfig from(ConfigEntry e) throws ConfigException {
    return new RequestLimitsConfig(
        (int) e.integer("max-connections", DEFAULTS.maxConnections(), 0, Integer.MAX_VALUE),
        (int) e.integer("max-filter-depth", DEFAULTS.maxFilterDepth(), 1, 100),
        (int) e.integer("max-filter-components", DEFAULTS.maxFilterComponents(), 1, 1_000_000),
        (int) e.integer("max-substring-components", DEFAULTS.maxSubstringComponents(), 1, 10_000),
        (int) e.integer("max-add-attributes", DEFAULTS.maxAddAttributes(), 1, 1_000_000),
        (int) e.integer("max-add-values", DEFAULTS.maxAddValues(), 1, Integer.MAX_VALUE),
        (int) e.integer("max-requested-attributes", DEFAULTS.maxRequestedAttributes(), 1, 1_000_000),
        (int) e.integer("shutdown-grace-period", DEFAULTS.shutdownGraceSeconds(), 0, 3600));
  }
}
