package io.rockds.protocol;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.ResultCode;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last inbound handler of a connection: it turns decoded messages into work for the
 * {@link LdapRequestHandler} on the worker pool. Unbind and abandon are acted on here, on the
 * event loop, because they must overtake requests still queued.
 */
final class LdapChannelHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(LdapChannelHandler.class);

  private final LdapRequestHandler handler;
  private final Executor workers;
  private final int maxOutstanding;
  private final AtomicInteger outstanding = new AtomicInteger();
  private LdapConnection connection;

  LdapChannelHandler(LdapRequestHandler handler, Executor workers, int maxOutstanding) {
    this.handler = handler;
    this.workers = workers;
    this.maxOutstanding = maxOutstanding;
  }

  LdapConnection connection() {
    return connection;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    connection = new LdapConnection(ctx.channel());
    handler.connected(connection);
    ctx.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    LDAPMessage request = (LDAPMessage) msg;
    switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_UNBIND_REQUEST -> ctx.close();
      case LDAPMessage.PROTOCOL_OP_TYPE_ABANDON_REQUEST ->
          handler.abandon(connection, request.getAbandonRequestProtocolOp().getIDToAbandon());
      default -> dispatch(request);
    }
  }

  private void dispatch(LDAPMessage request) {
    if (outstanding.incrementAndGet() > maxOutstanding) {
      outstanding.decrementAndGet();
      handler.rejected(connection, request);
      return;
    }
    try {
      workers.execute(() -> {
        try {
          handler.handle(connection, request);
        } catch (RuntimeException | Error e) {
          LOG.error("{} msgID={}: request failed", connection, request.getMessageID(), e);
          connection.disconnect(ResultCode.OTHER, "internal error");
        } finally {
          outstanding.decrementAndGet();
        }
      });
    } catch (RejectedExecutionException e) {
      outstanding.decrementAndGet();
      handler.rejected(connection, request);
    }
  }

  /** Requests of this connection queued or running. */
  int outstanding() {
    return outstanding.get();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    connection.writabilityChanged();
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof IdleStateEvent && outstanding.get() == 0) {
      connection.disconnect(ResultCode.UNAVAILABLE, "idle timeout exceeded");
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    connection.writabilityChanged();
    handler.disconnected(connection);
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof DecoderException && !(cause.getCause() instanceof javax.net.ssl.SSLException)) {
      String message = cause instanceof LdapCodecException ? cause.getMessage() : String.valueOf(cause.getCause());
      LOG.debug("{}: protocol error: {}", connection, message);
      connection.disconnect(ResultCode.PROTOCOL_ERROR, message);
    } else {
      LOG.debug("{}: closing after {}", connection, cause.toString());
      ctx.close();
    }
  }
}
