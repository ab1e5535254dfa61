package io.rockds.protocol;

import com.unboundid.ldap.protocol.ExtendedResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.ResultCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import javax.net.ssl.SSLSession;

/**
 * One client connection as the server sees it: an id for logs, the peer address, TLS state, an
 * attachment slot for the server's per-connection state, and the ways to answer the client.
 *
 * <p>Responses are written from worker threads. Search result entries go through an {@link
 * EntryBatch}, whose writes block while the channel is not writable, so a client that stops reading
 * holds one worker and a bounded outbound buffer (Netty's high water mark) instead of making the
 * server buffer a whole result set.
 */
public final class LdapConnection {
  /** OID of the Notice of Disconnection unsolicited notification (RFC 4511 section 4.4.1). */
  public static final String NOTICE_OF_DISCONNECTION_OID = "1.3.6.1.4.1.1466.20036";

  private static final AtomicLong IDS = new AtomicLong();

  /**
   * How long a Notice of Disconnection may take to leave before the connection is closed anyway.
   */
  private static final long NOTICE_GRACE_MILLIS = 2000;

  private final long id = IDS.getAndIncrement();

  /** The name of the idle timer in the channel pipeline, before the frame decoder. */
  static final String IDLE_HANDLER = "idle";

  private final Channel channel;
  private final Duration listenerIdleTimeout;
  private final Object writability = new Object();
  private final Queue<Runnable> whenWritable = new ConcurrentLinkedQueue<>();
  private final long connectedAtMillis = System.currentTimeMillis();
  private volatile boolean authenticated;
  // Binds on one connection never overlap (RFC 4511 4.2.1), so a plain check-then-set suffices.
  private volatile Duration idleTimeout;
  private volatile Object attachment;
  private volatile IntConsumer finalResponseListener;

  LdapConnection(Channel channel, Duration listenerIdleTimeout) {
    this.channel = channel;
    this.listenerIdleTimeout = listenerIdleTimeout;
    this.idleTimeout = listenerIdleTimeout;
  }

  /**
   * Replaces the listener's idle timeout for this connection, e.g. with a bound user's own limit:
   * {@code null} restores the listener's, {@link Duration#ZERO} keeps the connection however long
   * it idles. The idle time counts from this call. Setting the timeout already in force does
   * nothing: every bind sets it, and the bind's own request and response restart the idle clock.
   */
  public void setIdleTimeout(Duration timeout) {
    Duration effective = timeout == null ? listenerIdleTimeout : timeout;
    if (effective.equals(idleTimeout)) {
      return;
    }
    idleTimeout = effective;
    channel
        .eventLoop()
        .execute(
            () -> {
              if (channel.pipeline().get(IDLE_HANDLER) != null) {
                channel.pipeline().remove(IDLE_HANDLER);
              }
              if (!effective.isZero() && channel.pipeline().get(LdapServer.FRAME_HANDLER) != null) {
                channel
                    .pipeline()
                    .addBefore(LdapServer.FRAME_HANDLER, IDLE_HANDLER, idleHandler(effective));
              }
            });
  }

  static IdleStateHandler idleHandler(Duration timeout) {
    return new IdleStateHandler(0, 0, timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public long id() {
    return id;
  }

  public long connectedAtMillis() {
    return connectedAtMillis;
  }

  public InetSocketAddress remoteAddress() {
    return (InetSocketAddress) channel.remoteAddress();
  }

  public InetSocketAddress localAddress() {
    return (InetSocketAddress) channel.localAddress();
  }

  public boolean isOpen() {
    return channel.isActive();
  }

  /** True once TLS protects the connection (LDAPS or a completed StartTLS). */
  public boolean isSecure() {
    return channel.pipeline().get(SslHandler.class) != null;
  }

  /** The TLS session, or null on a clear connection (or during the StartTLS handshake). */
  public SSLSession sslSession() {
    SslHandler ssl = channel.pipeline().get(SslHandler.class);
    return ssl == null ? null : ssl.engine().getSession();
  }

  /** Raises the request size limit to the authenticated one (or lowers it again). */
  public void setAuthenticated(boolean authenticated) {
    this.authenticated = authenticated;
  }

  public boolean isAuthenticated() {
    return authenticated;
  }

  @SuppressWarnings("unchecked")
  public <T> T attachment() {
    return (T) attachment;
  }

  public void attach(Object value) {
    this.attachment = value;
  }

  /**
   * Tells {@code listener} the message ID of every final response sent (anything but search
   * entries, references, intermediate responses and unsolicited notifications), so the server can
   * tell whether an operation answered before it was cancelled.
   */
  public void onFinalResponse(IntConsumer listener) {
    this.finalResponseListener = listener;
  }

  /** Writes a response without waiting for the client to read it. */
  public void send(LDAPMessage message) {
    notifyFinal(message);
    channel.writeAndFlush(
        LdapMessageEncoder.encode(message, channel.alloc()), channel.voidPromise());
  }

  private void notifyFinal(LDAPMessage message) {
    IntConsumer listener = finalResponseListener;
    if (listener != null && message.getMessageID() != 0 && isFinal(message.getProtocolOpType())) {
      listener.accept(message.getMessageID());
    }
  }

  private static boolean isFinal(byte type) {
    return type != LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_ENTRY
        && type != LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_REFERENCE
        && type != LDAPMessage.PROTOCOL_OP_TYPE_INTERMEDIATE_RESPONSE;
  }

  ByteBufAllocator alloc() {
    return channel.alloc();
  }

  /** A batch for the result entries of one search, written by the calling worker thread only. */
  public EntryBatch entryBatch() {
    return new EntryBatch(this);
  }

  /**
   * Encoded entries, once the channel is writable (see {@link EntryBatch#addEntry}); released if
   * not written.
   */
  boolean write(ByteBuf encoded, long maxWaitMillis) throws InterruptedException {
    boolean written = false;
    try {
      written = awaitWritable(maxWaitMillis);
      if (written) {
        channel.write(encoded, channel.voidPromise());
      }
      return written;
    } finally {
      if (!written) {
        encoded.release();
      }
    }
  }

  /**
   * Sends the entries pending in {@code batch} now, with no final response: the initial results of
   * a persistent search, whose result comes only when it ends.
   */
  public void send(EntryBatch batch) {
    channel.writeAndFlush(batch.drainWith(null), channel.voidPromise());
  }

  /** Sends a final response after the entries still pending in {@code batch}, in one write. */
  public void send(EntryBatch batch, LDAPMessage message) {
    notifyFinal(message);
    channel.writeAndFlush(batch.drainWith(message), channel.voidPromise());
  }

  private boolean awaitWritable(long maxWaitMillis) throws InterruptedException {
    // On the event loop (a request run inline, whose output is small) waiting would wait for this
    // very thread: the bytes are queued past the high-water mark instead, and no further request
    // of the connection runs until they drain.
    if (!channel.isWritable() && !channel.eventLoop().inEventLoop()) {
      // Writability only returns as queued bytes are flushed to the socket.
      channel.flush();
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
      synchronized (writability) {
        while (!channel.isWritable() && channel.isActive()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            return false;
          }
          TimeUnit.NANOSECONDS.timedWait(writability, left);
        }
      }
    }
    return channel.isActive();
  }

  void writabilityChanged() {
    synchronized (writability) {
      writability.notifyAll();
    }
    if (channel.isWritable() || !channel.isActive()) {
      runWhenWritable();
    }
  }

  /**
   * False while the client leaves more than Netty's high water mark of responses unread: writers
   * that must not wait (persistent search notifications) hold their output back until {@link
   * #whenWritable}.
   */
  public boolean isWritable() {
    return channel.isWritable();
  }

  /**
   * Runs {@code task} once when the channel is writable again or closed (at once if it is writable
   * now), on whichever thread sees it so: the task must only hand work on, never block.
   */
  public void whenWritable(Runnable task) {
    whenWritable.add(task);
    if (channel.isWritable() || !channel.isActive()) {
      runWhenWritable();
    }
  }

  private void runWhenWritable() {
    for (Runnable task; (task = whenWritable.poll()) != null; ) {
      task.run();
    }
  }

  /**
   * Starts TLS on this connection for a StartTLS that succeeded: the success response leaves in
   * clear text, then the handshake begins (see {@link LdapChannelHandler#startTls}).
   */
  public void startTls(SslContext context, LDAPMessage successResponse) {
    LdapChannelHandler requests = channel.pipeline().get(LdapChannelHandler.class);
    if (requests != null) {
      channel.eventLoop().execute(() -> requests.startTls(context, successResponse));
    }
  }

  /** Sends a Notice of Disconnection with the given result and closes the connection. */
  public void disconnect(ResultCode resultCode, String message) {
    if (!channel.isActive()) {
      return;
    }
    SslHandler ssl = channel.pipeline().get(SslHandler.class);
    if (ssl != null && !ssl.handshakeFuture().isDone()) {
      // Nothing can be said before the handshake completes.
      channel.close();
      return;
    }
    LDAPMessage notice =
        new LDAPMessage(
            0,
            new ExtendedResponseProtocolOp(
                resultCode.intValue(), null, message, null, NOTICE_OF_DISCONNECTION_OID, null));
    channel.writeAndFlush(notice).addListener(ChannelFutureListener.CLOSE);
    // A client that does not read would keep the notice, and so the connection, pending forever.
    channel
        .eventLoop()
        .schedule(
            () -> {
              channel.close();
            },
            NOTICE_GRACE_MILLIS,
            TimeUnit.MILLISECONDS);
  }

  /** Response bytes written but not yet taken by the client's socket. */
  public long pendingOutboundBytes() {
    var buffer = channel.unsafe().outboundBuffer();
    return buffer == null ? 0 : buffer.totalPendingWriteBytes();
  }

  /** Closes the connection without a notice (after an unbind). */
  public void close() {
    channel.close();
  }

  @Override
  public String toString() {
    return "conn=" + id;
  }
}
