package io.rockds.protocol;

import com.unboundid.ldap.protocol.LDAPMessage;

/**
 * What the server plugs into the protocol front end. {@link #handle} runs on the worker pool, never
 * on a Netty event loop, and may block (for storage reads or for a slow client's socket to drain);
 * {@link #runInline} runs on the event loop and the other callbacks are quick notifications.
 */
public interface LdapRequestHandler {

  /** A client connected (after the TLS handshake for LDAPS). */
  default void connected(LdapConnection connection) {}

  /** Executes one request; responses go through {@link LdapConnection#send}. */
  void handle(LdapConnection connection, LDAPMessage request);

  /**
   * Executes {@code request} at once on the calling event loop and returns true if it is known to
   * be quick (an indexed search with few candidates, a simple bind that verifies a salted digest
   * and writes nothing), else returns false having sent nothing, and the request goes to {@link
   * #handle} on a worker. A request run here saves the two thread hand-offs of a worker run (wake a
   * worker, wake the event loop to write the response), which cost about as much CPU as the search
   * itself; it must never wait (for a lock, a slow client or disk beyond a few reads).
   */
  default boolean runInline(LdapConnection connection, LDAPMessage request) {
    return false;
  }

  /**
   * An abandon request, an unbind or a disconnect: stop the identified operation if it is still
   * running. Called on the event loop, so it must only flag the operation.
   */
  default void abandon(LdapConnection connection, int messageId) {}

  /**
   * The client sent an unbind; the connection closes right after. Called on the event loop, so it
   * must only record it.
   */
  default void unbound(LdapConnection connection, LDAPMessage request) {}

  /** The connection closed, for whatever reason. */
  default void disconnected(LdapConnection connection) {}

  /** The worker pool is full: the request is refused with busy (51) without running. */
  default void rejected(LdapConnection connection, LDAPMessage request) {}
}
