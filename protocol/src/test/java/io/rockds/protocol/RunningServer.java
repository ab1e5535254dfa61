package io.rockds.protocol;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** A real {@link LdapServer} on a loopback port with {@link SampleDirectory} behind it. */
final class RunningServer implements AutoCloseable {
  /** Netty's high water mark in {@link LdapServer}: a channel holding more is not writable. */
  static final long HIGH_WATER_MARK = 1024 * 1024;

  final SampleDirectory directory = new SampleDirectory();
  final LdapServer server;
  private final EventLoopGroup boss = Transport.SELECTED.newGroup(1);
  private final EventLoopGroup io = Transport.SELECTED.newGroup(2);
  private final ExecutorService workers = Executors.newFixedThreadPool(4);

  RunningServer(ProtocolSettings settings) throws Exception {
    this(settings, ConnectionLimit.unlimited());
  }

  RunningServer(ProtocolSettings settings, ConnectionLimit limit) throws Exception {
    server = new LdapServer(settings, directory, workers, boss, io, limit);
    server.start();
  }

  static ProtocolSettings defaults() {
    return ProtocolSettings.plain("127.0.0.1", 0);
  }

  /** The defaults with other request size and outstanding request limits. */
  static ProtocolSettings withLimits(
      int maxPduAnonymous, int maxPduAuthenticated, int maxOutstanding) {
    return settings(
        maxPduAnonymous,
        maxPduAuthenticated,
        0,
        Duration.ZERO,
        maxOutstanding,
        ProtocolSettings.DEFAULT_REQUEST_READ_TIMEOUT);
  }

  /** The defaults with other idle and request read timeouts. */
  static ProtocolSettings withTimeouts(Duration idleTimeout, Duration requestReadTimeout) {
    return settings(
        ProtocolSettings.DEFAULT_MAX_PDU_ANONYMOUS,
        ProtocolSettings.DEFAULT_MAX_PDU_AUTHENTICATED,
        0,
        idleTimeout,
        ProtocolSettings.DEFAULT_MAX_OUTSTANDING,
        requestReadTimeout);
  }

  /** The defaults accepting at most {@code maxConnections} connections at once. */
  static ProtocolSettings withMaxConnections(int maxConnections) {
    return settings(
        ProtocolSettings.DEFAULT_MAX_PDU_ANONYMOUS,
        ProtocolSettings.DEFAULT_MAX_PDU_AUTHENTICATED,
        maxConnections,
        Duration.ZERO,
        ProtocolSettings.DEFAULT_MAX_OUTSTANDING,
        ProtocolSettings.DEFAULT_REQUEST_READ_TIMEOUT);
  }

  private static ProtocolSettings settings(
      int maxPduAnonymous,
      int maxPduAuthenticated,
      int maxConnections,
      Duration idleTimeout,
      int maxOutstanding,
      Duration requestReadTimeout) {
    return new ProtocolSettings(
        "127.0.0.1",
        0,
        null,
        maxPduAnonymous,
        maxPduAuthenticated,
        ProtocolSettings.DEFAULT_MAX_BER_DEPTH,
        maxConnections,
        idleTimeout,
        maxOutstanding,
        requestReadTimeout);
  }

  int port() {
    return server.port();
  }

  /** What every hostile-input test ends with: a well-behaved client is still served. */
  void assertServesNormalClient() throws LDAPException {
    try (LDAPConnection connection = new LDAPConnection("127.0.0.1", port())) {
      connection.bind("cn=normal", "secret");
      SearchResult result = connection.search("cn=normal", SearchScope.BASE, "(objectClass=*)");
      if (result.getEntryCount() != 1
          || !result.getSearchEntries().get(0).getDN().equals("cn=normal")) {
        throw new AssertionError("unexpected search result: " + result);
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    server.close();
    workers.shutdownNow();
    workers.awaitTermination(5, TimeUnit.SECONDS);
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
