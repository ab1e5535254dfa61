package io.rockds.config;

/**
 * Server-wide settings from {@code cn=config}.
 *
 * @param sizeLimit entries a search may return (0 = none); root DNs are exempt
 * @param timeLimitSeconds seconds a search may run (0 = none)
 * @param lookthroughLimit candidate entries a search may examine (0 = none)
 * @param allowAnonymousRead anonymous clients may read and search everything but passwords
 * @param workerThreads size of the operation worker pool (0 = twice the cores, at least 8)
 * @param requestLimits defensive per-request limits and connection handling
 */
public record GlobalConfig(int sizeLimit, int timeLimitSeconds, int lookthroughLimit, boolean allowAnonymousRead,
    int workerThreads, RequestLimitsConfig requestLimits) {

  static GlobalConfig from(ConfigEntry e) throws ConfigException {
    return new GlobalConfig(
        (int) e.integer("size-limit", 1000, 0, Integer.MAX_VALUE),
        (int) e.integer("time-limit", 60, 0, Integer.MAX_VALUE),
        (int) e.integer("lookthrough-limit", 5000, 0, Integer.MAX_VALUE),
        e.bool("allow-anonymous-read", false),
        (int) e.integer("num-worker-threads", 0, 0, 4096),
        RequestLimitsConfig.from(e));
  }
}
