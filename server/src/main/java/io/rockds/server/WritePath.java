package io.rockds.server;

import com.unboundid.ldap.sdk.LDAPException;

/**
 * Where prepared writes go: applied here at once ({@link #LOCAL}, a single server), or through the
 * replication group's log, applied on every server in log order and answered once applied here.
 */
public interface WritePath {
  /**
   * Applies {@code record} and returns what the application answered (never a refusal: that is
   * thrown).
   *
   * @param applier the deterministic application, which a single server runs at once
   */
  WriteOutcome commit(WriteRecord record, WriteApplier applier) throws LDAPException;

  /**
   * Returns once this server has applied every write committed before the call, so that a read
   * served next is linearizable (the read-after-write control). A single server applies each write
   * before answering it: there is nothing to wait for.
   *
   * @throws LDAPException unavailable (52) when the group cannot tell within the write timeout
   */
  default void awaitCommitted() throws LDAPException {}

  /**
   * Whether writes reach other servers: then a change of the shared settings (see {@link
   * io.rockds.config.SharedConfig}) must not be mixed with a change of this server's own.
   */
  default boolean replicated() {
    return false;
  }

  /** A single server: the record is applied at once, on the request's thread. */
  WritePath LOCAL = (record, applier) -> applier.apply(record).orThrow();
}
