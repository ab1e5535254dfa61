package io.rockds.tools.status;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

/**
 * The live figures of {@code cn=monitor} at one moment; two samples give rates.
 *
 * @param nanoTime when it was read ({@link System#nanoTime})
 */
record MonitorSample(
    long currentConnections,
    long totalConnections,
    long opsCompleted,
    long unindexedSearches,
    long nanoTime) {
  static final String MONITOR = "cn=monitor";

  /** Reads {@code cn=monitor}; empty (null) when the server publishes none. */
  static MonitorSample read(LDAPConnection connection) throws LDAPException {
    Entry entry;
    try {
      entry =
          connection.getEntry(
              MONITOR,
              "currentConnections",
              "totalConnections",
              "opsCompleted",
              "unindexedSearches");
    } catch (LDAPException e) {
      if (e.getResultCode() == ResultCode.NO_SUCH_OBJECT) {
        return null;
      }
      throw e;
    }
    if (entry == null || !entry.hasAttribute("opsCompleted")) {
      return null;
    }
    return new MonitorSample(
        value(entry, "currentConnections"),
        value(entry, "totalConnections"),
        value(entry, "opsCompleted"),
        value(entry, "unindexedSearches"),
        System.nanoTime());
  }

  private static long value(Entry entry, String attribute) {
    Long v = entry.getAttributeValueAsLong(attribute);
    return v == null ? 0 : v;
  }

  /** Operations completed per second between {@code earlier} and this sample, ours excluded. */
  double operationsPerSecondSince(MonitorSample earlier, int ownOperations) {
    double seconds = (nanoTime - earlier.nanoTime) / 1e9;
    return seconds <= 0
        ? 0
        : Math.max(0, opsCompleted - earlier.opsCompleted - ownOperations) / seconds;
  }
}
