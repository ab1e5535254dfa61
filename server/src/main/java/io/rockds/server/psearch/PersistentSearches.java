package io.rockds.server.psearch;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.PersistentSearchConfig;
import io.rockds.protocol.LdapConnection;
import io.rockds.replication.DaemonThreads;
import io.rockds.server.backend.Change;
import io.rockds.server.backend.ChangeListener;
import io.rockds.server.logging.ErrorSeverity;
import io.rockds.server.logging.ServerLogs;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The server's open persistent searches: it hears every committed change and offers it to each of
 * them, and it holds their limits ({@link PersistentSearchConfig}: per server, per connection, for
 * anonymous clients), refusing one more with adminLimitExceeded (11). A search is released when its
 * client abandons it, unbinds or disconnects, or when it falls behind.
 */
public final class PersistentSearches implements ChangeListener, AutoCloseable {
  private final Supplier<PersistentSearchConfig> config;
  private final ServerLogs logs;
  private final List<PersistentSearch> open = new CopyOnWriteArrayList<>();
  private final AtomicLong overflowed = new AtomicLong();
  private final ExecutorService delivery;
  private final PersistentSearch.Owner owner =
      new PersistentSearch.Owner() {
        @Override
        public void ended(PersistentSearch search, ResultCode result, String reason) {
          open.remove(search);
          if (result == ResultCode.ADMIN_LIMIT_EXCEEDED) {
            overflowed.incrementAndGet();
            logs.error(
                ErrorSeverity.WARNING, "CORE", "persistent search " + search + ": " + reason);
          }
        }

        @Override
        public void failed(PersistentSearch search, Change change, Exception e) {
          logs.error(
              ErrorSeverity.ERROR,
              "CORE",
              "persistent search "
                  + search
                  + ": no notification of the "
                  + change.type()
                  + " of "
                  + change.dn()
                  + ": "
                  + e);
        }
      };

  public PersistentSearches(Supplier<PersistentSearchConfig> config, ServerLogs logs) {
    this.config = config;
    this.logs = logs;
    // Two threads turn changes into notifications for every search; they never wait on a client.
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            2,
            2,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            new DaemonThreads("psearch-delivery"));
    this.delivery = executor;
  }

  /**
   * Opens a persistent search, not yet delivering ({@link PersistentSearch#start} once the initial
   * results are sent), or refuses it with adminLimitExceeded when a limit is reached.
   */
  public synchronized PersistentSearch open(
      PersistentSearch.Request request, PersistentSearch.Notifications notifications)
      throws LDAPException {
    PersistentSearchConfig limits = config.get();
    long onConnection = open.stream().filter(s -> s.connection() == request.connection()).count();
    long ofAnonymous = open.stream().filter(PersistentSearch::anonymous).count();
    if (open.size() >= limits.maxPsearches()) {
      throw refused(limits.maxPsearches() + " persistent searches are open (max-psearches)");
    }
    if (onConnection >= limits.maxPerConnection()) {
      throw refused(
          onConnection
              + " persistent searches are open on this connection (max-psearches-per-connection)");
    }
    if (request.anonymous() && ofAnonymous >= limits.maxAnonymous()) {
      throw refused(
          ofAnonymous
              + " persistent searches of anonymous clients are open (max-anonymous-psearches)");
    }
    PersistentSearch search =
        new PersistentSearch(request, limits.queueSize(), notifications, delivery, owner);
    open.add(search);
    return search;
  }

  private static LDAPException refused(String why) {
    return new LDAPException(
        ResultCode.ADMIN_LIMIT_EXCEEDED, "No persistent search can start: " + why);
  }

  @Override
  public void committed(Change change) {
    for (PersistentSearch search : open) {
      search.offer(change);
    }
  }

  /** An open persistent search may send the changed entry, all of it. */
  @Override
  public boolean readsWholeEntries() {
    return !open.isEmpty();
  }

  /** An open persistent search may be one of {@code cn=changelog}. */
  @Override
  public boolean hearsChangelogEntries() {
    return !open.isEmpty();
  }

  /**
   * The client abandoned the operation {@code messageId}: ends it if it is a persistent search;
   * true if it was one.
   */
  public boolean abandon(LdapConnection connection, int messageId) {
    boolean found = false;
    for (PersistentSearch search : open) {
      if (search.connection() == connection && search.messageId() == messageId) {
        search.abandon("abandoned");
        found = true;
      }
    }
    return found;
  }

  /** The connection closed (unbind or disconnect): its persistent searches end. */
  public void disconnected(LdapConnection connection) {
    for (PersistentSearch search : open) {
      if (search.connection() == connection) {
        search.abandon("disconnected");
      }
    }
  }

  /** Persistent searches open now ({@code cn=monitor}, {@code /metrics}). */
  public int active() {
    return open.size();
  }

  /** Persistent searches ended because their client did not keep up. */
  public long overflowed() {
    return overflowed.get();
  }

  @Override
  public void close() {
    delivery.shutdownNow();
  }
}
