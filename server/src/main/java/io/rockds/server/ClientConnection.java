package io.rockds.server;

import io.rockds.protocol.LdapConnection;
import io.rockds.server.search.PagedSearches;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The server's state for one client connection, attached to its {@link LdapConnection}. */
public final class ClientConnection {
  /** The {@link #authMethod} of an anonymous connection. */
  public static final String NO_AUTHENTICATION = "none";

  private final LdapConnection ldap;
  private final Map<Integer, RunningOperation> inFlight;
  private final AtomicLong operationCount;
  private volatile Identity identity = Identity.ANONYMOUS;
  private volatile String authMethod = NO_AUTHENTICATION;
  private final PagedSearches pagedSearches = new PagedSearches();
  private volatile boolean unbound;
  private volatile Identity restrictedToPasswordChange;

  ClientConnection(LdapConnection ldap) {
    this(ldap, new ConcurrentHashMap<>(), new AtomicLong());
    ldap.onFinalResponse(
        messageId -> {
          RunningOperation operation = inFlight.get(messageId);
          if (operation != null) {
            operation.responded();
          }
        });
  }

  private ClientConnection(
      LdapConnection ldap, Map<Integer, RunningOperation> inFlight, AtomicLong operationCount) {
    this.ldap = ldap;
    this.inFlight = inFlight;
    this.operationCount = operationCount;
  }

  /**
   * The same connection acting as {@code identity} for one operation (proxied authorization, RFC
   * 4370): it shares the in-flight operations but not the bound identity.
   */
  public ClientConnection actingAs(Identity actor) {
    ClientConnection view = new ClientConnection(ldap, inFlight, operationCount);
    view.identity = actor;
    view.authMethod = actor.isAnonymous() ? NO_AUTHENTICATION : authMethod;
    return view;
  }

  public LdapConnection ldap() {
    return ldap;
  }

  /** The paged-results searches open on this connection: cookies are valid only here. */
  public PagedSearches pagedSearches() {
    return pagedSearches;
  }

  /** The client said goodbye with an unbind (the disconnect reason is then "Client Unbind"). */
  void markUnbound() {
    unbound = true;
  }

  boolean unbound() {
    return unbound;
  }

  public Identity identity() {
    return identity;
  }

  /**
   * How the client authenticated, as ACI {@code authmethod} rules name it: {@code none}, {@code
   * simple} or {@code sasl <mechanism>}.
   */
  public String authMethod() {
    return authMethod;
  }

  /**
   * The identity of this connection's bind whose password an administrator reset, under a policy
   * forcing its change: until it is changed, only that change is allowed ({@link
   * io.rockds.server.security.policy.ResetRestrictions}). Null when not restricted.
   */
  public Identity restrictedToPasswordChange() {
    return restrictedToPasswordChange;
  }

  /**
   * Restricts the bind as {@code identity} (see {@link #restrictedToPasswordChange}); null lifts.
   */
  public void restrictToPasswordChange(Identity identity) {
    restrictedToPasswordChange = identity;
  }

  void setIdentity(Identity identity, String authMethod) {
    this.identity = identity;
    this.authMethod = identity.isAnonymous() ? NO_AUTHENTICATION : authMethod;
    ldap.setAuthenticated(!identity.isAnonymous());
    ldap.setIdleTimeout(identity.limits().idleTimeout());
  }

  /**
   * The sequence number of the next operation on this connection ({@code op=} in the access log).
   */
  long nextOperationNumber() {
    return operationCount.getAndIncrement();
  }

  /** Registers a running operation so that abandon and cancel can find it. */
  RunningOperation start(int messageId, byte type) {
    RunningOperation operation = new RunningOperation(messageId, type);
    inFlight.put(messageId, operation);
    return operation;
  }

  void finish(RunningOperation operation) {
    inFlight.remove(operation.messageId(), operation);
  }

  /** The running operation with this message ID, or null. */
  RunningOperation running(int messageId) {
    return inFlight.get(messageId);
  }

  /** Flags an operation as abandoned; true if it was running. */
  boolean abandon(int messageId) {
    RunningOperation operation = inFlight.get(messageId);
    if (operation == null) {
      return false;
    }
    operation.abandon();
    return true;
  }

  void abandonAll() {
    inFlight.values().forEach(RunningOperation::abandon);
  }

  @Override
  public String toString() {
    return ldap.toString();
  }
}
