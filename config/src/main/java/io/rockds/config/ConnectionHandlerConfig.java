package io.rockds.config;

import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;

/**
 * An LDAP or LDAPS listener ({@code cn=<name>,cn=Connection Handlers,cn=config}); defaults and
 * descriptions are in {@link ConfigModel#CONNECTION_HANDLER}.
 *
 * @param useSsl LDAPS: TLS from the first byte
 * @param allowStartTls StartTLS offered on a plain listener
 * @param maxOutstandingRequests requests of one connection running at once before it is read no
 *     further
 * @param requestReadTimeoutMillis deadline for the TLS handshake and first request, and for each
 *     request's bytes
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

  /** Reads an entry the model's validation accepted. */
  static ConnectionHandlerConfig from(ConfigEntry e) {
    PropertyReader r = new PropertyReader(e.entry(), ConfigModel.CONNECTION_HANDLER);
    return new ConnectionHandlerConfig(
        e.name(),
        r.bool("enabled"),
        r.string("listen-address"),
        r.integer("listen-port").intValue(),
        r.bool("use-ssl"),
        r.bool("allow-start-tls"),
        r.integer("max-request-size-anonymous").intValue(),
        r.integer("max-request-size").intValue(),
        r.integer("max-connections").intValue(),
        r.integer("idle-time-limit").intValue(),
        r.integer("max-outstanding-requests").intValue(),
        r.integer("request-read-timeout").intValue());
  }
}
