package io.rockds.server.logging;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.protocol.LdapConnection;
import io.rockds.server.monitor.ServerMetrics;
import java.net.InetSocketAddress;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The request router's one seam with the access log and the metrics: connection events, and each
 * operation wrapped from its start to its result. Both views are fed from the same record here, so
 * the count of SEARCH lines in the access log equals the search counter over the same run.
 */
public final class OperationLogging {
  private final AccessLogger logger;
  private final ServerMetrics metrics;

  public OperationLogging(AccessLogger logger, ServerMetrics metrics) {
    this.logger = logger;
    this.metrics = metrics;
  }

  /** An operation being timed; {@link #finish} logs it. */
  public final class Operation {
    private final LdapConnection connection;
    private final long operationId;
    private final LDAPMessage request;
    private final DN user;
    private final ZonedDateTime started = ZonedDateTime.now();
    private final long startNanos = System.nanoTime();
    private final OperationRecord record = OperationRecord.bind();

    private Operation(LdapConnection connection, long operationId, LDAPMessage request, DN user) {
      metrics.operationStarted(meterName(request));
      this.connection = connection;
      this.operationId = operationId;
      this.request = request;
      this.user = user;
    }

    /**
     * Forgets the operation, which did not run here after all (an inline attempt handed to a
     * worker, which logs it): nothing is logged nor counted, and its record is unbound.
     */
    public void withdraw() {
      OperationRecord.unbind();
      metrics.operationWithdrawn(meterName(request));
    }

    /**
     * Logs the operation with {@code resultCode}, unless the operation reported its own result
     * (compare), and unbinds its record from the thread.
     */
    public void finish(int resultCode, String message) {
      OperationRecord.unbind();
      long etime = (System.nanoTime() - startNanos) / 1_000_000;
      int result = record.reportedResult() >= 0 ? record.reportedResult() : resultCode;
      boolean search = request.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST;
      metrics.operationCompleted(
          meterName(request),
          ServerMetrics.resultTag(ResultCode.valueOf(result)),
          System.nanoTime() - startNanos);
      if (search) {
        metrics.searchFinished(!record.unindexed(), record.nentries());
      }
      Map<String, String> fields = RequestFields.of(request);
      if (record.authenticatingDn() != null) {
        fields.put("authDN", record.authenticatingDn().toString());
      }
      logger.log(
          new AccessRecord(
              started,
              RequestFields.type(request),
              connection.id(),
              operationId,
              request.getMessageID(),
              fields,
              result,
              message,
              search ? record.nentries() : -1,
              record.unindexed(),
              etime,
              address(connection.remoteAddress()),
              user));
    }
  }

  /** Starts timing an operation and binds its {@link OperationRecord} to this thread. */
  public Operation start(
      LdapConnection connection, long operationId, LDAPMessage request, DN user) {
    return new Operation(connection, operationId, request, user);
  }

  /**
   * The {@code op} tag of an operation: its access-log type in lower case (search, bind, moddn,
   * ...).
   */
  private static String meterName(LDAPMessage request) {
    return METER_NAMES.computeIfAbsent(
        RequestFields.type(request), type -> type.toLowerCase(Locale.ROOT));
  }

  private static final Map<String, String> METER_NAMES = new ConcurrentHashMap<>();

  public void connected(LdapConnection connection) {
    metrics.connectionOpened();
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("from", hostPort(connection.remoteAddress()));
    fields.put("to", hostPort(connection.localAddress()));
    fields.put("protocol", connection.isSecure() ? "LDAPS" : "LDAP");
    logger.log(event("CONNECT", connection, fields));
  }

  public void disconnected(LdapConnection connection, String reason) {
    metrics.connectionClosed();
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("reason", reason);
    logger.log(event("DISCONNECT", connection, fields));
  }

  /** An unbind request: OpenDJ's {@code UNBIND REQ conn=.. op=.. msgID=..}, no result. */
  public void unbound(LdapConnection connection, long operationId, int messageId, DN user) {
    logger.log(
        unanswered("UNBIND", connection, operationId, messageId, Map.of(), -1, null, -1, user));
  }

  /** An abandon request for {@code idToAbandon}, with whether that operation was still running. */
  public void abandoned(
      LdapConnection connection, long operationId, int idToAbandon, boolean found, DN user) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("idToAbandon", Integer.toString(idToAbandon));
    logger.log(
        unanswered(
            "ABANDON",
            connection,
            operationId,
            -1,
            fields,
            found ? 0 : 32,
            found ? null : "no operation with that message ID is running",
            0,
            user));
  }

  private static AccessRecord event(
      String type, LdapConnection connection, Map<String, String> fields) {
    return unanswered(type, connection, -1, -1, fields, -1, null, -1, DN.NULL_DN);
  }

  /**
   * A record of now that is not an operation's timed result: connection events, unbind, abandon (-1
   * where a field does not apply).
   */
  private static AccessRecord unanswered(
      String type,
      LdapConnection connection,
      long operationId,
      int messageId,
      Map<String, String> fields,
      int result,
      String message,
      long etimeMillis,
      DN user) {
    return new AccessRecord(
        ZonedDateTime.now(),
        type,
        connection.id(),
        operationId,
        messageId,
        fields,
        result,
        message,
        -1,
        false,
        etimeMillis,
        address(connection.remoteAddress()),
        user);
  }

  private static String address(InetSocketAddress address) {
    return address == null ? "" : address.getAddress().getHostAddress();
  }

  private static String hostPort(InetSocketAddress address) {
    return address == null ? "" : address.getAddress().getHostAddress() + ":" + address.getPort();
  }
}
