package io.rockds.protocol;

import com.unboundid.ldap.protocol.ExtendedResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.ResultCode;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One LDAP or LDAPS listener. The event loops (shared by all listeners of a server) only frame,
 * decode and encode; requests run on the {@link Executor} given at construction.
 *
 * <p>Pipeline: [ssl] → [idle] → frame (size and time limits) → decode (depth limit, element path) →
 * encode → requests (which pulls requests only as fast as it runs them).
 */
public final class LdapServer implements AutoCloseable {
  /** The name of the frame decoder in a connection's pipeline. */
  static final String FRAME_HANDLER = "frame";

  private static final WriteBufferWaterMark WATER_MARK =
      new WriteBufferWaterMark(256 * 1024, 1024 * 1024);

  private final ProtocolSettings settings;
  private final LdapRequestHandler handler;
  private final Executor workers;
  private final EventLoopGroup bossGroup;
  private final EventLoopGroup ioGroup;
  private final ConnectionLimit connectionLimit;
  private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private Channel serverChannel;

  /**
   * @param connectionLimit shared by every listener of a server, for a global limit; the listener's
   *     own {@link ProtocolSettings#maxConnections} applies as well
   */
  public LdapServer(
      ProtocolSettings settings,
      LdapRequestHandler handler,
      Executor workers,
      EventLoopGroup bossGroup,
      EventLoopGroup ioGroup,
      ConnectionLimit connectionLimit) {
    this.settings = settings;
    this.handler = handler;
    this.workers = workers;
    this.bossGroup = bossGroup;
    this.ioGroup = ioGroup;
    this.connectionLimit = connectionLimit;
  }

  public LdapServer(
      ProtocolSettings settings,
      LdapRequestHandler handler,
      Executor workers,
      EventLoopGroup bossGroup,
      EventLoopGroup ioGroup) {
    this(settings, handler, workers, bossGroup, ioGroup, ConnectionLimit.unlimited());
  }

  /**
   * Binds the listener. A failure to listen (a port already in use, a privileged port) becomes a
   * {@link BindException} whose message says which address and transport, so the caller can print
   * one clear line instead of a stack trace, whichever transport failed: the native one reports its
   * errors as I/O exceptions that Netty rethrows undeclared.
   */
  public void start() throws BindException, InterruptedException {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(bossGroup, ioGroup)
            .channel(Transport.SELECTED.serverChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.AUTO_READ, false)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    configure(ch);
                  }
                });
    InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
    ChannelFuture bound = bootstrap.bind(address);
    try {
      serverChannel = bound.sync().channel();
    } catch (InterruptedException e) {
      bound.channel().close();
      throw e;
    } catch (Exception e) {
      bound.channel().close(); // registered with the event loop, never bound
      BindException clear =
          new BindException(
              "cannot listen on "
                  + settings.host()
                  + ":"
                  + settings.port()
                  + " ("
                  + Transport.SELECTED.label()
                  + "): "
                  + e.getMessage()
                  + (Transport.isAddressInUse(e) ? " (is another server using the port?)" : ""));
      clear.initCause(e);
      throw clear;
    }
  }

  private void configure(SocketChannel ch) {
    ChannelPipeline pipeline = ch.pipeline();
    boolean underListenerLimit =
        settings.maxConnections() <= 0 || channels.size() < settings.maxConnections();
    if (!underListenerLimit || !connectionLimit.tryAcquire()) {
      if (settings.sslContext() != null) {
        ch.close(); // a clear-text notice would be noise to a TLS client
      } else {
        pipeline.addLast(new RefuseConnection());
      }
      return;
    }
    ch.closeFuture().addListener(f -> connectionLimit.release());
    channels.add(ch);
    if (settings.sslContext() != null) {
      SslHandler ssl = settings.sslContext().newHandler(ch.alloc());
      if (!settings.requestReadTimeout().isZero()) {
        ssl.setHandshakeTimeoutMillis(settings.requestReadTimeout().toMillis());
      }
      pipeline.addLast("ssl", ssl);
    }
    if (!settings.idleTimeout().isZero()) {
      pipeline.addLast(
          LdapConnection.IDLE_HANDLER, LdapConnection.idleHandler(settings.idleTimeout()));
    }
    LdapChannelHandler requests =
        new LdapChannelHandler(
            handler, workers, settings.maxOutstandingRequests(), settings.idleTimeout());
    pipeline.addLast(
        FRAME_HANDLER,
        new LdapFrameDecoder(
            () -> {
              LdapConnection connection = requests.connection();
              return connection != null && connection.isAuthenticated()
                  ? settings.maxPduBytesAuthenticated()
                  : settings.maxPduBytesAnonymous();
            },
            settings.requestReadTimeout()));
    pipeline.addLast("decode", new LdapMessageDecoder(settings.maxBerDepth()));
    pipeline.addLast("encode", new LdapMessageEncoder());
    pipeline.addLast("requests", requests);
  }

  /** The bound port (useful when the settings asked for port 0). */
  public int port() {
    return ((InetSocketAddress) serverChannel.localAddress()).getPort();
  }

  public ProtocolSettings settings() {
    return settings;
  }

  /** Connections open on this listener. */
  public int connectionCount() {
    return channels.size();
  }

  /** Requests running or waiting for a worker, over all connections of this listener. */
  public int outstandingRequests() {
    int total = 0;
    for (Channel channel : channels) {
      LdapChannelHandler requests = channel.pipeline().get(LdapChannelHandler.class);
      total += requests == null ? 0 : requests.outstanding();
    }
    return total;
  }

  /** Response bytes waiting for slow clients, over all connections of this listener. */
  public long pendingOutboundBytes() {
    long total = 0;
    for (Channel channel : channels) {
      LdapChannelHandler requests = channel.pipeline().get(LdapChannelHandler.class);
      total +=
          requests == null || requests.connection() == null
              ? 0
              : requests.connection().pendingOutboundBytes();
    }
    return total;
  }

  /** Stops accepting; connections stay open until {@link #disconnectAll}. */
  public void stopAccepting() {
    if (serverChannel != null) {
      serverChannel.close().syncUninterruptibly();
    }
  }

  /** Stops reading new requests on every connection; requests already read still run. */
  public void stopReading() {
    for (Channel channel : channels) {
      LdapChannelHandler requests = channel.pipeline().get(LdapChannelHandler.class);
      if (requests != null) {
        requests.drain();
      }
    }
  }

  /** Waits until no request is queued or running, or {@code bound} passes; true when idle. */
  public boolean awaitIdle(Duration bound) throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (outstandingRequests() > 0) {
      if (System.nanoTime() >= deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  /**
   * Sends every client a Notice of Disconnection and closes the connections; the handler learns of
   * each close and abandons what still runs.
   */
  public void disconnectAll(String reason) {
    for (Channel channel : channels) {
      LdapChannelHandler requests = channel.pipeline().get(LdapChannelHandler.class);
      if (requests != null && requests.connection() != null) {
        requests.connection().disconnect(ResultCode.UNAVAILABLE, reason);
      } else {
        channel.close();
      }
    }
    channels.newCloseFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  /** Graceful shutdown of this listener alone: stop accepting and reading, drain, notify, close. */
  @Override
  public void close() {
    stopAccepting();
    stopReading();
    try {
      awaitIdle(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    disconnectAll("the server is shutting down");
  }

  /** Answers a connection over the limit with a Notice of Disconnection (unavailable). */
  private static final class RefuseConnection extends ChannelInboundHandlerAdapter {
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      ctx.pipeline().addLast(new LdapMessageEncoder());
      ctx.channel()
          .writeAndFlush(
              new LDAPMessage(
                  0,
                  new ExtendedResponseProtocolOp(
                      ResultCode.UNAVAILABLE.intValue(),
                      null,
                      "too many connections",
                      null,
                      LdapConnection.NOTICE_OF_DISCONNECTION_OID,
                      null)))
          .addListener(ChannelFutureListener.CLOSE);
    }
  }
}
