package io.rockds.server;

import io.rockds.protocol.LdapConnection;
import io.rockds.server.search.PagedSearches;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** The server's state for one client connection, attached to its {@link LdapConnection}. */
public final class ClientConnection {
  private final LdapConnection ldap;
  private final Map<Integer, AtomicBoolean> inFlight;
  private final AtomicLong operationCount;
  private volatile Identity identity = Identity.ANONYMOUS;
  private final PagedSearches pagedSearches = new PagedSearches();

  ClientConnection(LdapConnection ldap) {
    this(ldap, new ConcurrentHashMap<>(), new AtomicLong());
  }

  private ClientConnection(LdapConnection ldap, Map<Integer, AtomicBoolean> inFlight, AtomicLong operationCount) {
    this.ldap = ldap;
    this.inFlight = inFlight;
    this.operationCount = operationCount;
  }

  /**
   * The same connection acting as {@code identity} for one operation (proxied authorization,
   * RFC 4370): it shares the in-flight operations but not the bound identity.
   */
  public ClientConnection actingAs(Identity actor) {
    ClientConnection view = new ClientConnection(ldap, inFlight, operationCount);
    view.identity = actor;
    return view;
  }

  public LdapConnection ldap() {
    return ldap;
  }

  /** The paged-results searches open on this connection: cookies are valid only here. */
  public PagedSearches pagedSearches() {
    return pagedSearches;
  }

  public Identity identity() {
    return identity;
  }

  void setIdentity(Identity identity) {
    this.identity = identity;
    ldap.setAuthenticated(!identity.isAnonymous());
  }

  /** The sequence number of the next operation on this connection ({@code op=} in the access log). */
  long nextOperationNumber() {
    return operationCount.getAndIncrement();
  }

  /** Registers a running operation; its flag turns true when it is abandoned or the client leaves. */
  AtomicBoolean start(int messageId) {
    AtomicBoolean cancelled = new AtomicBoolean();
    inFlight.put(messageId, cancelled);
    return cancelled;
  }

  void finish(int messageId) {
    inFlight.remove(messageId);
  }

  /** Flags an operation as abandoned; true if it was running. */
  boolean abandon(int messageId) {
    AtomicBoolean flag = inFlight.get(messageId);
    if (flag == null) {
      return false;
    }
    flag.set(true);
    return true;
  }

  void abandonAll() {
    inFlight.values().forEach(f -> f.set(true));
  }

  @Override
  public String toString() {
    return ldap.toString();
  }
}
