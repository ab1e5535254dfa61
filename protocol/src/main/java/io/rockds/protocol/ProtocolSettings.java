package io.rockds.protocol;

import io.netty.handler.ssl.SslContext;
import java.time.Duration;

/**
 * The limits and addresses one listener runs with.
 *
 * @param host the address to bind, e.g. {@code 127.0.0.1}
 * @param port the port; 0 picks a free one (tests)
 * @param sslContext non-null for LDAPS: TLS starts immediately on accept
 * @param maxPduBytesAnonymous request size limit before a successful bind
 * @param maxPduBytesAuthenticated request size limit after a successful bind
 * @param maxBerDepth nesting bound for constructed BER elements
 * @param maxConnections connections accepted at once on this listener; 0 means no limit
 * @param idleTimeout a connection with no request in flight and no traffic for this long is closed;
 *     zero disables
 * @param maxOutstandingRequests requests of one connection queued or running at once; beyond it the
 *     connection is not read until one finishes
 * @param requestReadTimeout the TLS handshake and first request must arrive within this of connect,
 *     and every later request within this of its first byte (slow clients); zero disables
 */
public record ProtocolSettings(
    String host,
    int port,
    SslContext sslContext,
    int maxPduBytesAnonymous,
    int maxPduBytesAuthenticated,
    int maxBerDepth,
    int maxConnections,
    Duration idleTimeout,
    int maxOutstandingRequests,
    Duration requestReadTimeout) {

  public static final int DEFAULT_MAX_PDU_ANONYMOUS = 256 * 1024;
  public static final int DEFAULT_MAX_PDU_AUTHENTICATED = 8 * 1024 * 1024;
  public static final int DEFAULT_MAX_BER_DEPTH = 128;
  public static final int DEFAULT_MAX_OUTSTANDING = 100;
  public static final Duration DEFAULT_REQUEST_READ_TIMEOUT = Duration.ofSeconds(30);

  public ProtocolSettings {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port: " + port + " (expected: 0..65535)");
    }
    if (maxPduBytesAnonymous <= 0 || maxPduBytesAuthenticated <= 0) {
      throw new IllegalArgumentException("max request size must be > 0");
    }
    if (maxOutstandingRequests <= 0) {
      throw new IllegalArgumentException(
          "maxOutstandingRequests: " + maxOutstandingRequests + " (expected: > 0)");
    }
    if (idleTimeout.isNegative() || requestReadTimeout.isNegative()) {
      throw new IllegalArgumentException("timeouts must not be negative");
    }
  }

  /** Plain LDAP with the default limits. */
  public static ProtocolSettings plain(String host, int port) {
    return new ProtocolSettings(
        host,
        port,
        null,
        DEFAULT_MAX_PDU_ANONYMOUS,
        DEFAULT_MAX_PDU_AUTHENTICATED,
        DEFAULT_MAX_BER_DEPTH,
        0,
        Duration.ZERO,
        DEFAULT_MAX_OUTSTANDING,
        DEFAULT_REQUEST_READ_TIMEOUT);
  }
}
