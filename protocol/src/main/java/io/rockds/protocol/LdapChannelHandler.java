package io.rockds.protocol;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.ResultCode;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last inbound handler of a connection: it turns decoded messages into work for the {@link
 * LdapRequestHandler} on the worker pool, and decides when to read more.
 *
 * <p>Reading is pull-based (auto-read is off): decoded requests wait in a small queue and are
 * dispatched only while fewer than {@code maxOutstanding} requests of this connection are running
 * on the worker pool and the channel is writable; more bytes are read from the socket only once
 * that queue is empty and fewer than {@code maxOutstanding} requests run. A client that pipelines
 * requests without reading the responses therefore stalls in its own socket buffers instead of
 * growing the server's memory: the server holds at most one socket read of queued requests, {@code
 * maxOutstanding} running ones and Netty's high water mark of response bytes.
 *
 * <p>Unbind and abandon are acted on as soon as they are decoded, on the event loop, and cancel
 * requests go to a worker at once, because they must overtake requests already running or still
 * queued.
 *
 * <p>Binds and StartTLS run alone (RFC 4511 sections 4.2.1 and 4.14.1): they start once every
 * earlier request of the connection has finished, and no later request starts before they have
 * finished, so a pipelined request never runs with the identity or the transport of before the bind
 * or StartTLS that precedes it. Anything received after a StartTLS request and before its TLS layer
 * is in place was sent in clear text behind it (the CVE-2011-0411 injection): the connection is
 * closed and none of it runs. A request with messageID 0, which RFC 4511 section 4.1.1.1 reserves
 * for unsolicited notifications, gets a Notice of Disconnection (protocolError).
 */
final class LdapChannelHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(LdapChannelHandler.class);

  /** The Cancel extended operation (RFC 3909). */
  private static final String CANCEL_OID = "1.3.6.1.1.8";

  /** The StartTLS extended operation (RFC 4511 section 4.14). */
  private static final String START_TLS_OID = "1.3.6.1.4.1.1466.20037";

  private final LdapRequestHandler handler;
  private final Executor workers;
  private final int maxOutstanding;
  private final AtomicInteger outstanding = new AtomicInteger();
  private final ArrayDeque<LDAPMessage> queued = new ArrayDeque<>();
  private volatile boolean draining;

  /**
   * A bind or StartTLS is running: nothing else may start (set on the event loop, cleared by its
   * worker).
   */
  private volatile boolean exclusiveRunning;

  /** A StartTLS was read and its TLS layer is not in place yet (event loop only). */
  private boolean startTlsPending;

  /**
   * The connection broke the protocol and is being closed: nothing more is run (event loop only).
   */
  private boolean refused;

  private final Duration idleTimeout;
  private ChannelHandlerContext ctx;
  private LdapConnection connection;

  LdapChannelHandler(
      LdapRequestHandler handler, Executor workers, int maxOutstanding, Duration idleTimeout) {
    this.handler = handler;
    this.workers = workers;
    this.maxOutstanding = maxOutstanding;
    this.idleTimeout = idleTimeout;
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
    connection = new LdapConnection(ctx.channel(), idleTimeout);
    handler.connected(connection);
    ctx.fireChannelActive();
    readIfReady();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    LDAPMessage request = (LDAPMessage) msg;
    if (refused) {
      return;
    }
    if (request.getMessageID() == 0) {
      refuse("messageID 0 is reserved for unsolicited notifications (RFC 4511 section 4.1.1.1)");
      return;
    }
    if (startTlsPending) {
      refuse(
          "a request was received after StartTLS before TLS was established; such clear-text requests are"
              + " never run (RFC 4511 section 4.14.1)");
      return;
    }
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
          dispatch(request, false);
        } else {
          startTlsPending = isStartTls(request);
          queued.add(request);
          dispatchQueued();
        }
      }
    }
  }

  private static boolean isCancel(LDAPMessage request) {
    return isExtended(request, CANCEL_OID);
  }

  private static boolean isStartTls(LDAPMessage request) {
    return isExtended(request, START_TLS_OID);
  }

  private static boolean isExtended(LDAPMessage request, String oid) {
    return request.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_REQUEST
        && oid.equals(request.getExtendedRequestProtocolOp().getOID());
  }

  /** Binds and StartTLS change who the client is or how it talks: they run alone. */
  private static boolean runsAlone(LDAPMessage request) {
    return request.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST
        || isStartTls(request);
  }

  /**
   * Stops running and reading this connection's requests and closes it with a protocolError notice.
   */
  private void refuse(String reason) {
    refused = true;
    queued.clear();
    LOG.debug("{}: protocol error: {}", connection, reason);
    connection.disconnect(ResultCode.PROTOCOL_ERROR, reason);
  }

  /**
   * Puts TLS in place for a StartTLS that succeeded, on the event loop: first in the pipeline, in
   * {@code startTls} mode so that {@code successResponse}, written right after, still leaves in
   * clear text. Bytes already received behind the StartTLS request (even part of a PDU) are clear
   * text injected ahead of the handshake: the connection is closed instead.
   */
  void startTls(SslContext context, LDAPMessage successResponse) {
    Channel channel = ctx.channel();
    LdapFrameDecoder frames = channel.pipeline().get(LdapFrameDecoder.class);
    if (refused || !channel.isActive()) {
      return;
    }
    if (frames != null && frames.bufferedBytes() > 0) {
      refused = true;
      queued.clear();
      LOG.debug("{}: clear-text bytes received behind StartTLS; closing", connection);
      channel.close();
      return;
    }
    SslHandler handler = context.newHandler(channel.alloc());
    handler.engine().setUseClientMode(false);
    channel.pipeline().addFirst("ssl", new SslHandler(handler.engine(), true));
    startTlsPending = false;
    channel.writeAndFlush(successResponse, channel.voidPromise());
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    readIfReady();
  }

  private void dispatch(LDAPMessage request, boolean alone) {
    outstanding.incrementAndGet();
    if (alone) {
      exclusiveRunning = true;
    }
    try {
      workers.execute(
          () -> {
            try {
              handler.handle(connection, request);
            } catch (RuntimeException | Error e) {
              LOG.error("{} msgID={}: request failed", connection, request.getMessageID(), e);
              connection.disconnect(ResultCode.OTHER, "internal error");
            } finally {
              release(alone);
              finished(request);
            }
          });
    } catch (RejectedExecutionException e) {
      release(alone);
      startTlsPending &= !isStartTls(request);
      handler.rejected(connection, request);
    }
  }

  private void release(boolean alone) {
    if (alone) {
      exclusiveRunning = false;
    }
    outstanding.decrementAndGet();
  }

  /** Called from the worker that ran {@code request}: continues on the event loop. */
  private void finished(LDAPMessage request) {
    if (isStartTls(request)) {
      // A StartTLS that failed leaves the connection in clear text; one that succeeded already
      // cleared the flag (its TLS task ran first on the event loop).
      ctx.channel()
          .eventLoop()
          .execute(
              () -> {
                startTlsPending = false;
                readIfReady();
              });
    } else {
      resume();
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
    while (!queued.isEmpty() && mayDispatch() && !exclusiveRunning) {
      LDAPMessage next = queued.peek();
      boolean alone = runsAlone(next);
      if (alone && outstanding.get() > 0) {
        return; // the requests before it finish first
      }
      queued.poll();
      // Run inline, a request is alone too: nothing of this connection is outstanding (see above)
      // and its event loop runs nothing else of it meanwhile.
      if (!ranInline(next)) {
        dispatch(next, alone);
      }
    }
  }

  /**
   * Whether the handler ran {@code request} here on the event loop (see {@link
   * LdapRequestHandler#runInline}).
   */
  private boolean ranInline(LDAPMessage request) {
    try {
      return handler.runInline(connection, request);
    } catch (RuntimeException e) {
      LOG.error("{} msgID={}: request failed", connection, request.getMessageID(), e);
      connection.disconnect(ResultCode.OTHER, "internal error");
      return true;
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
      String message =
          cause instanceof LdapCodecException
              ? cause.getMessage()
              : String.valueOf(cause.getCause());
      LOG.debug("{}: protocol error: {}", connection, message);
      connection.disconnect(ResultCode.PROTOCOL_ERROR, message);
    } else {
      LOG.debug("{}: closing after {}", connection, cause.toString());
      ctx.close();
    }
  }
}
