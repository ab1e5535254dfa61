package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.protocol.LdapConnection;
import io.rockds.protocol.LdapRequestHandler;
import io.rockds.server.logging.OperationLogging;
import io.rockds.server.psearch.PersistentSearches;
import io.rockds.server.sasl.SaslMechanisms;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each request as its operation class, on a worker thread, after the checks every request
 * passes (request limits, critical controls). Failures an operation reports as an {@link
 * LDAPException} become that result; anything else is logged and answered with {@code other} (80)
 * so that one bad request never takes the connection or the server down. An operation cancelled
 * before it answered gets {@code canceled} (118) here.
 */
public final class RequestRouter implements LdapRequestHandler {
  private static final Logger LOG = LoggerFactory.getLogger(RequestRouter.class);

  private final ServerContext context;
  private final RequestLimits limits;
  private final SaslMechanisms sasl;
  private final OperationLogging accessLog;
  private final PersistentSearches persistentSearches;

  public RequestRouter(
      ServerContext context, OperationLogging accessLog, PersistentSearches persistentSearches) {
    this.context = context;
    this.accessLog = accessLog;
    this.persistentSearches = persistentSearches;
    this.limits = new RequestLimits(() -> context.global().requestLimits());
    this.sasl = new SaslMechanisms(context);
  }

  @Override
  public void connected(LdapConnection connection) {
    connection.attach(new ClientConnection(connection));
    accessLog.connected(connection);
  }

  @Override
  public void handle(LdapConnection connection, LDAPMessage request) {
    run(connection, request, false);
  }

  @Override
  public boolean runInline(LdapConnection connection, LDAPMessage request) {
    return (SearchOperation.mayRunInline(request) || BindOperation.mayRunInline(request))
        && run(connection, request, true);
  }

  /**
   * Runs {@code request} and answers it; false if it ran {@code inline} and turned out not to be
   * quick ({@link RunOnWorker}), in which case nothing was sent nor logged.
   */
  private boolean run(LdapConnection connection, LDAPMessage request, boolean inline) {
    ClientConnection client = connection.attachment();
    RunningOperation operation = client.start(request.getMessageID(), request.getProtocolOpType());
    OperationLogging.Operation logged =
        accessLog.start(connection, client.nextOperationNumber(), request, client.identity().dn());
    ResultCode result = ResultCode.SUCCESS;
    String message = null;
    boolean declined = false;
    try {
      limits.check(request);
      SupportedControls.checkCritical(request);
      awaitWritesIfAsked(request);
      execute(context.access().authorize(client, request), request, operation.stopFlag(), inline);
    } catch (RunOnWorker e) {
      declined = true;
    } catch (LDAPException e) {
      result = e.getResultCode();
      message = Responses.diagnosticMessage(e);
      connection.send(Responses.result(request, e));
    } catch (RuntimeException e) {
      LOG.error("{} msgID={}: unexpected failure", client, request.getMessageID(), e);
      result = ResultCode.OTHER;
      message = "internal server error: " + e;
      connection.send(Responses.result(request, result, message));
    } finally {
      client.finish(operation);
      if (declined) {
        logged.withdraw();
      } else {
        if (operation.finish()) {
          result = ResultCode.CANCELED;
          message = "The operation was canceled";
          connection.send(Responses.result(request, result, message));
        }
        logged.finish(result.intValue(), message);
      }
    }
    return !declined;
  }

  /** A read with the read-after-write control first waits for every write committed before it. */
  private void awaitWritesIfAsked(LDAPMessage request) throws LDAPException {
    String oid = SupportedControls.READ_AFTER_WRITE;
    if (SupportedControls.find(request, oid) != null
        && SupportedControls.isSupported(request.getProtocolOpType(), oid)) {
      context.writes().awaitCommitted();
    }
  }

  private void execute(
      ClientConnection client, LDAPMessage request, AtomicBoolean stop, boolean inline)
      throws LDAPException {
    switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST ->
          new BindOperation(context, sasl, client, request, inline).run();
      case LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST ->
          new SearchOperation(context, client, request, stop, persistentSearches, inline).run();
      case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST ->
          new AddOperation(context, client, request).run();
      case LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST ->
          new DeleteOperation(context, client, request).run();
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST ->
          new ModifyOperation(context, client, request).run();
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST ->
          new ModifyDnOperation(context, client, request).run();
      case LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_REQUEST ->
          new CompareOperation(context, client, request).run();
      case LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_REQUEST ->
          new ExtendedOperation(context, client, request).run();
      default ->
          client
              .ldap()
              .disconnect(
                  ResultCode.PROTOCOL_ERROR,
                  "unsupported protocol operation type 0x"
                      + Integer.toHexString(request.getProtocolOpType() & 0xFF));
    }
  }

  @Override
  public void abandon(LdapConnection connection, int messageId) {
    ClientConnection client = connection.attachment();
    if (client != null) {
      // A persistent search past its initial results runs no more: it is registered there.
      boolean found = client.abandon(messageId) | persistentSearches.abandon(connection, messageId);
      accessLog.abandoned(
          connection, client.nextOperationNumber(), messageId, found, client.identity().dn());
    }
  }

  @Override
  public void unbound(LdapConnection connection, LDAPMessage request) {
    ClientConnection client = connection.attachment();
    if (client != null) {
      client.markUnbound();
      accessLog.unbound(
          connection, client.nextOperationNumber(), request.getMessageID(), client.identity().dn());
    }
  }

  @Override
  public void disconnected(LdapConnection connection) {
    ClientConnection client = connection.attachment();
    if (client != null) {
      client.abandonAll();
    }
    persistentSearches.disconnected(connection);
    accessLog.disconnected(
        connection, client != null && client.unbound() ? "Client Unbind" : "Client Disconnect");
  }

  @Override
  public void rejected(LdapConnection connection, LDAPMessage request) {
    connection.send(
        Responses.result(
            request,
            ResultCode.BUSY,
            "the server is too busy to process the request; retry later"));
  }
}
