package io.rockds.protocol;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.ResultCode;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last inbound handler of a connection: it turns decoded messages into work for the
 * {@link LdapRequestHandler} on the worker pool, and decides when to read more.
 *
 * <p>Reading is pull-based (auto-read is off): decoded requests wait in a small queue and are
 * dispatched only while fewer than {@code maxOutstanding} requests of this connection are running
 * on the worker pool and the channel is writable; more bytes are read from the socket only once
 * that queue is empty and fewer than {@code maxOutstanding} requests run. A client that pipelines requests without reading the responses therefore
 * stalls in its own socket buffers instead of growing the server's memory: the server holds at
 * most one socket read of queued requests, {@code maxOutstanding} running ones and Netty's high
 * water mark of response bytes.
 *
 * <p>Unbind and abandon are acted on as soon as they are decoded, on the event loop, and cancel
 * requests go to a worker at once, because they must overtake requests already running or still
 * queued.
 */
final class LdapChannelHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(LdapChannelHandler.class);
  /** The Cancel extended operation (RFC 3909). */
  private static final String CANCEL_OID = "1.3.6.1.1.8";

  private final LdapRequestHandler handler;
  private final Executor workers;
  private final int maxOutstanding;
  private final AtomicInteger outstanding = new AtomicInteger();
  private final ArrayDeque<LDAPMessage> queued = new ArrayDeque<>();
  private volatile boolean draining;
  private ChannelHandlerContext ctx;
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
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    connection = new LdapConnection(ctx.channel());
    handler.connected(connection);
    ctx.fireChannelActive();
    readIfReady();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    LDAPMessage request = (LDAPMessage) msg;
    switch (request.getProtocolOpType()) {
      // Closing abandons what still runs (channelInactive tells the handler).
      case LDAPMessage.PROTOCOL_OP_TYPE_UNBIND_REQUEST -> {
        handler.unbound(connection, request);
        ctx.close();
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_ABANDON_REQUEST -> {
        int target = request.getAbandonRequestProtocolOp().getIDToAbandon();
        // An abandoned request that has not started is simply never run (nor answered).
        if (!queued.removeIf(waiting -> waiting.getMessageID() == target)) {
          handler.abandon(connection, target);
        }
      }
      default -> {
        if (isCancel(request) && outstanding.get() < maxOutstanding) {
          // Like abandon, a cancel must reach a search that is blocked on this very connection's
          // writability, so it is not held back with the requests that produce output.
          dispatch(request);
        } else {
          queued.add(request);
          dispatchQueued();
        }
      }
    }
  }

  private static boolean isCancel(LDAPMessage request) {
    return request.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_REQUEST
        && CANCEL_OID.equals(request.getExtendedRequestProtocolOp().getOID());
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    readIfReady();
  }

  private void dispatch(LDAPMessage request) {
    outstanding.incrementAndGet();
    try {
      workers.execute(() -> {
        try {
          handler.handle(connection, request);
        } catch (RuntimeException | Error e) {
          LOG.error("{} msgID={}: request failed", connection, request.getMessageID(), e);
          connection.disconnect(ResultCode.OTHER, "internal error");
        } finally {
          outstanding.decrementAndGet();
          resume();
        }
      });
    } catch (RejectedExecutionException e) {
      outstanding.decrementAndGet();
      handler.rejected(connection, request);
    }
  }

  /** Requests of this connection running (or waiting for a worker). */
  int outstanding() {
    return outstanding.get();
  }

  /** Stops running and reading requests for good (graceful shutdown); running ones finish. */
  void drain() {
    draining = true;
    ctx.channel().eventLoop().execute(queued::clear);
  }

  /** Called from a worker when a slot frees up: continues on the event loop. */
  private void resume() {
    Channel channel = ctx.channel();
    if (channel.eventLoop().inEventLoop()) {
      readIfReady();
    } else {
      channel.eventLoop().execute(this::readIfReady);
    }
  }

  private boolean mayDispatch() {
    return ctx.channel().isWritable() && mayRead();
  }

  /**
   * Reading needs no writability: what is read waits in the queue, and nothing more is read until
   * the queue is empty. So a cancel still gets in while a search waits for the client to read.
   */
  private boolean mayRead() {
    return !draining && ctx.channel().isActive() && outstanding.get() < maxOutstanding;
  }

  private void dispatchQueued() {
    while (!queued.isEmpty() && mayDispatch()) {
      dispatch(queued.poll());
    }
  }

  /** Dispatches what is queued, then asks the socket for more once nothing is. */
  private void readIfReady() {
    dispatchQueued();
    if (queued.isEmpty() && mayRead()) {
      ctx.read();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    connection.writabilityChanged();
    readIfReady();
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof IdleStateEvent && outstanding.get() == 0 && queued.isEmpty()) {
      connection.disconnect(ResultCode.UNAVAILABLE, "idle timeout exceeded");
      return;
    }
    ctx.fireUserEventTriggered(event);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    queued.clear();
    connection.writabilityChanged();
    handler.disconnected(connection);
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof LdapCodecException
        || cause instanceof DecoderException && !(cause.getCause() instanceof SSLException)) {
      String message = cause instanceof LdapCodecException ? cause.getMessage() : String.valueOf(cause.getCause());
      LOG.debug("{}: protocol error: {}", connection, message);
      connection.disconnect(ResultCode.PROTOCOL_ERROR, message);
    } else {
      LOG.debug("{}: closing after {}", connection, cause.toString());
      ctx.close();
    }
  }
}
