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

  /** A single server: the record is applied at once, on the request's thread. */
  WritePath LOCAL = (record, applier) -> applier.apply(record).orThrow();
}
