package io.rockds.server.logging;

import com.unboundid.ldap.sdk.DN;

/**
 * What the running operation reports about itself for the access log: entries returned, whether a
 * search was unindexed, a result sent without an exception (compare). An operation runs on one
 * worker thread from request to response, so the router binds the record to that thread and the
 * operation classes reach it with {@link #current()} without a parameter through every layer.
 */
public final class OperationRecord {
  private static final ThreadLocal<OperationRecord> CURRENT = new ThreadLocal<>();

  /** Reported when no operation is bound (internal calls, tests): writes go nowhere. */
  private static final OperationRecord DETACHED = new OperationRecord();

  private long nentries;
  private boolean unindexed;
  private int result = -1;
  private DN authenticating;

  /** The record of the operation running on this thread; a detached one outside operations. */
  public static OperationRecord current() {
    OperationRecord record = CURRENT.get();
    return record != null ? record : DETACHED;
  }

  /** Binds a fresh record to this thread until {@link #unbind}. */
  static OperationRecord bind() {
    OperationRecord record = new OperationRecord();
    CURRENT.set(record);
    return record;
  }

  static void unbind() {
    // Not remove(): every operation of an event loop or worker binds again, and a removal cost a
    // walk of the thread's map each time. A null reads as DETACHED.
    CURRENT.set(null);
  }

  public void entrySent() {
    nentries++;
  }

  public void markUnindexed() {
    unindexed = true;
  }

  /** A result the operation sent itself (compareTrue, compareFalse, ...). */
  public void result(int resultCode) {
    result = resultCode;
  }

  /**
   * The identity a bind (or a Password Modify's old password) tried, for the access log's authDN.
   */
  public void authenticating(DN dn) {
    authenticating = dn;
  }

  /** The identity tried, or null. */
  DN authenticatingDn() {
    return authenticating;
  }

  long nentries() {
    return nentries;
  }

  boolean unindexed() {
    return unindexed;
  }

  /** The result the operation reported, or -1. */
  int reportedResult() {
    return result;
  }
}
