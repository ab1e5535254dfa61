package io.rockds.server.logging;

import com.unboundid.ldap.sdk.DN;
import java.time.ZonedDateTime;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One access log record: a connection event or a finished operation.
 *
 * @param type OpenDJ's upper-case name: CONNECT, DISCONNECT, BIND, SEARCH, ADD, MODIFY, DELETE,
 *     MODDN, COMPARE, EXTENDED, ABANDON, UNBIND
 * @param operationId the operation's sequence number on its connection; -1 for connection events
 * @param messageId -1 when there is none
 * @param request the request's fields in log order, e.g. base, scope, filter, attrs
 * @param result the result code; -1 for records without one
 * @param nentries entries returned (searches), else -1
 * @param etimeMillis -1 for records without one
 * @param userDn the bound user when the operation ran; the null DN for anonymous
 */
public record AccessRecord(
    ZonedDateTime time,
    String type,
    long connectionId,
    long operationId,
    int messageId,
    Map<String, String> request,
    int result,
    String message,
    long nentries,
    boolean unindexed,
    long etimeMillis,
    String clientAddress,
    DN userDn) {

  public AccessRecord {
    request = Collections.unmodifiableMap(new LinkedHashMap<>(request));
  }

  /** The {@code log-record-type} name filtering criteria use: search, rename, connect, ... */
  public String recordType() {
    return type.equals("MODDN") ? "rename" : type.toLowerCase(Locale.ROOT);
  }

  public boolean isOperation() {
    return operationId >= 0;
  }
}
