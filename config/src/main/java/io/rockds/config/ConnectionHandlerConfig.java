package io.rockds.config;

/**
 * An LDAP or LDAPS listener ({@code cn=<name>,cn=Connection Handlers,cn=config}).
 *
 * @param useSsl LDAPS: TLS from the first byte
 * @param allowStartTls StartTLS offered on a plain listener
 * @param maxOutstandingRequests requests of one connection running at once before it is read no further
 * @param requestReadTimeoutMillis deadline for the TLS handshake and first request, and for each request's bytes
 */
public record ConnectionHandlerConfig(
    String name,
    boolean enabled,
    String listenAddress,
    int listenPort,
    boolean useSsl,
    boolean allowStartTls,
    int maxRequestSizeAnonymous,
    int maxRequestSizeAuthenticated,
    int maxConnections,
    int idleTimeSeconds,
    int maxOutstandingRequests,
    int requestReadTimeoutMillis) {

  static ConnectionHandlerConfig from(ConfigEntry e) throws ConfigException {
    return new ConnectionHandlerConfig(
        e.name(),
        e.bool("enabled", true),
        e.string("listen-address", "127.0.0.1"),
        (int) e.integer("listen-port", 1389, 0, 65535),
        e.bool("use-ssl", false),
        e.bool("allow-start-tls", true),
        (int) e.integer("max-request-size-anonymous", 256 * 1024, 1024, Integer.MAX_VALUE),
        (int) e.integer("max-request-size", 8 * 1024 * 1024, 1024, Integer.MAX_VALUE),
        (int) e.integer("max-connections", 0, 0, Integer.MAX_VALUE),
        (int) e.integer("idle-time-limit", 0, 0, Integer.MAX_VALUE),
        (int) e.integer("max-outstanding-requests", 100, 1, 100_000),
        (int) e.integer("request-read-timeout", 30_000, 0, Integer.MAX_VALUE));
  }
}
