package io.rockds.config;

import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;

/**
 * Server-wide settings from {@code cn=config}; defaults and descriptions are in {@link
 * ConfigModel#GLOBAL}.
 *
 * @param sizeLimit entries a search may return (0 = none); root DNs are exempt
 * @param timeLimitSeconds seconds a search may run (0 = none)
 * @param lookthroughLimit candidate entries a search may examine (0 = none)
 * @param allowAnonymousRead anonymous clients may read and search everything but passwords
 * @param workerThreads size of the operation worker pool (0 = twice the cores, at least 8)
 * @param http the metrics and health endpoint
 * @param requestLimits defensive per-request limits and connection handling
 * @param memoryBudgetBytes memory the server may use, caches derived from it (0 = half the
 *     machine's)
 * @param persistentSearch how many persistent searches may run and how far a client may lag
 */
public record GlobalConfig(
    int sizeLimit,
    int timeLimitSeconds,
    int lookthroughLimit,
    boolean allowAnonymousRead,
    int workerThreads,
    RequestLimitsConfig requestLimits,
    HttpEndpoint http,
    long memoryBudgetBytes,
    PersistentSearchConfig persistentSearch) {

  /**
   * The HTTP endpoint of {@code /metrics} and {@code /health}.
   *
   * @param port -1 for none, 0 for any free port
   */
  public record HttpEndpoint(String address, int port, boolean metricsEnabled) {
    public static final HttpEndpoint NONE = new HttpEndpoint("127.0.0.1", -1, true);
  }

  /** Reads an entry the model's validation accepted. */
  static GlobalConfig from(ConfigEntry e) {
    PropertyReader r = new PropertyReader(e.entry(), ConfigModel.GLOBAL);
    return new GlobalConfig(
        r.integer("size-limit").intValue(),
        r.integer("time-limit").intValue(),
        r.integer("lookthrough-limit").intValue(),
        r.bool("allow-anonymous-read"),
        r.integer("num-worker-threads").intValue(),
        RequestLimitsConfig.from(r),
        new HttpEndpoint(
            r.string("http-listen-address"),
            r.integer("http-port").intValue(),
            r.bool("metrics-enabled")),
        r.integer("memory-budget"),
        PersistentSearchConfig.from(r));
  }
}
