package io.rockds.protocol;

import com.unboundid.ldap.sdk.ResultCode;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
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
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One LDAP or LDAPS listener. The event loops (shared by all listeners of a server) only frame,
 * decode and encode; requests run on the {@link Executor} given at construction.
 */
public final class LdapServer implements AutoCloseable {
  private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);

  private final ProtocolSettings settings;
  private final LdapRequestHandler handler;
  private final Executor workers;
  private final EventLoopGroup bossGroup;
  private final EventLoopGroup ioGroup;
  private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private Channel serverChannel;

  public LdapServer(ProtocolSettings settings, LdapRequestHandler handler, Executor workers,
      EventLoopGroup bossGroup, EventLoopGroup ioGroup) {
    this.settings = settings;
    this.handler = handler;
    this.workers = workers;
    this.bossGroup = bossGroup;
    this.ioGroup = ioGroup;
  }

  /**
   * Binds the listener. A port already in use becomes a {@link BindException} whose message says
   * which address, so the caller can print one clear line instead of a stack trace.
   */
  public void start() throws BindException, InterruptedException {
    ServerBootstrap bootstrap = new ServerBootstrap()
        .group(bossGroup, ioGroup)
        .channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 1024)
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            configure(ch);
          }
        });
    InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
    try {
      serverChannel = bootstrap.bind(address).sync().channel();
    } catch (Exception e) {
      if (e instanceof BindException || e.getCause() instanceof BindException) {
        BindException clear = new BindException("cannot listen on " + settings.host() + ":" + settings.port()
            + ": " + e.getMessage() + " (is another server using the port?)");
        clear.initCause(e);
        throw clear;
      }
      throw e;
    }
  }

  private void configure(SocketChannel ch) {
    ChannelPipeline pipeline = ch.pipeline();
    if (settings.maxConnections() > 0 && channels.size() >= settings.maxConnections()) {
      pipeline.addLast(new RefuseConnection());
      return;
    }
    channels.add(ch);
    if (settings.sslContext() != null) {
      pipeline.addLast("ssl", settings.sslContext().newHandler(ch.alloc()));
    }
    if (!settings.idleTimeout().isZero()) {
      pipeline.addLast(new IdleStateHandler(0, 0, settings.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
    }
    LdapChannelHandler requests = new LdapChannelHandler(handler, workers, settings.maxOutstandingRequests());
    pipeline.addLast("frame", new LdapFrameDecoder(() -> {
      LdapConnection connection = requests.connection();
      return connection != null && connection.isAuthenticated()
          ? settings.maxPduBytesAuthenticated() : settings.maxPduBytesAnonymous();
    }));
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

  /** Stops accepting; connections stay open until {@link #disconnectAll}. */
  public void stopAccepting() {
    if (serverChannel != null) {
      serverChannel.close().syncUninterruptibly();
    }
  }

  /** Sends every client a Notice of Disconnection and closes the connections. */
  public void disconnectAll(String reason) {
    for (Channel channel : channels) {
      LdapChannelHandler requests = channel.pipeline().get(LdapChannelHandler.class);
      if (requests != null && requests.connection() != null) {
        requests.connection().disconnect(ResultCode.UNAVAILABLE, reason);
      } else {
        channel.close();
      }
    }
    channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    stopAccepting();
    disconnectAll("the server is shutting down");
  }

  /** Answers a connection over the limit with a Notice of Disconnection (unavailable). */
  private static final class RefuseConnection extends ChannelInboundHandlerAdapter {
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      ctx.pipeline().addLast(new LdapMessageEncoder());
      ctx.writeAndFlush(new com.unboundid.ldap.protocol.LDAPMessage(0,
              new com.unboundid.ldap.protocol.ExtendedResponseProtocolOp(ResultCode.UNAVAILABLE.intValue(), null,
                  "too many connections", null, LdapConnection.NOTICE_OF_DISCONNECTION_OID, null)))
          .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
    }
  }
}
