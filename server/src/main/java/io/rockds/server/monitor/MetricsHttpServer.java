package io.rockds.server.monitor;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.ScheduledFuture;
import io.rockds.protocol.Transport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The HTTP endpoint Prometheus scrapes: {@code GET /metrics} (text exposition format 0.0.4) and
 * {@code GET /health} (200 {@code ready} once backends are open and listeners bound, 200 {@code
 * degraded: <reason>} while the server serves reads but refuses writes, such as a replicated server
 * that cannot reach a majority of its group, 503 {@code not ready} before that and during
 * shutdown). Loopback by default.
 *
 * <p>Anyone who can reach the port is a client, so no client can hold it for the others: it is
 * served on a non-blocking event loop (a client that sends half a request holds its own socket, not
 * a thread), the request line and headers must arrive within the header timeout (else 408) and fit
 * in the request size limit (else 431), connections beyond {@link #MAX_CONNECTIONS} are closed at
 * once, and each answer closes its connection.
 */
public final class MetricsHttpServer implements AutoCloseable {
  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_REQUEST_BYTES = 8192;

  /** Connections open at once; a scraper needs one. */
  public static final int MAX_CONNECTIONS = 64;

  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  private static final String PLAIN_TEXT = "text/plain; charset=utf-8";

  private final ServerMetrics metrics;
  private final BooleanSupplier ready;
  private final Supplier<String> degradation;
  private final Duration headerTimeout;
  private final int maxRequestBytes;
  private final EventLoopGroup group = Transport.SELECTED.newGroup(1);
  private final AtomicInteger connections = new AtomicInteger();
  private final Channel server;

  public MetricsHttpServer(String host, int port, ServerMetrics metrics, BooleanSupplier ready)
      throws IOException {
    this(host, port, metrics, ready, () -> null);
  }

  /**
   * @param degradation why the server, though ready, refuses writes; null when it does not
   */
  public MetricsHttpServer(
      String host,
      int port,
      ServerMetrics metrics,
      BooleanSupplier ready,
      Supplier<String> degradation)
      throws IOException {
    this(
        host, port, metrics, ready, degradation, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_REQUEST_BYTES);
  }

  public MetricsHttpServer(
      String host,
      int port,
      ServerMetrics metrics,
      BooleanSupplier ready,
      Duration headerTimeout,
      int maxRequestBytes)
      throws IOException {
    this(host, port, metrics, ready, () -> null, headerTimeout, maxRequestBytes);
  }

  public MetricsHttpServer(
      String host,
      int port,
      ServerMetrics metrics,
      BooleanSupplier ready,
      Supplier<String> degradation,
      Duration headerTimeout,
      int maxRequestBytes)
      throws IOException {
    this.metrics = metrics;
    this.ready = ready;
    this.degradation = degradation;
    this.headerTimeout = headerTimeout;
    this.maxRequestBytes = maxRequestBytes;
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(group)
            .channel(Transport.SELECTED.serverChannel())
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    if (connections.incrementAndGet() > MAX_CONNECTIONS) {
                      connections.decrementAndGet();
                      ch.close();
                      return;
                    }
                    ch.closeFuture().addListener(f -> connections.decrementAndGet());
                    ch.pipeline().addLast(new Exchange());
                  }
                });
    try {
      server = bootstrap.bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
    } catch (Exception e) { // the native transport's I/O errors come undeclared
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      throw new IOException(e.getMessage(), e);
    }
  }

  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /**
   * One request on one connection: its head is buffered (bounded in size and time), answered,
   * closed.
   */
  private final class Exchange extends ChannelInboundHandlerAdapter {
    private ByteBuf head;
    private ScheduledFuture<?> deadline;
    private boolean answered;

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      head = ctx.alloc().buffer(256, maxRequestBytes);
      deadline =
          ctx.executor()
              .schedule(
                  () ->
                      answer(
                          ctx,
                          408,
                          "Request Timeout",
                          PLAIN_TEXT,
                          "request headers not received in time\n",
                          true),
                  headerTimeout.toMillis(),
                  TimeUnit.MILLISECONDS);
      ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf bytes = (ByteBuf) msg;
      try {
        if (answered) {
          return;
        }
        if (bytes.readableBytes() > maxRequestBytes - head.readableBytes()) {
          answer(
              ctx,
              431,
              "Request Header Fields Too Large",
              PLAIN_TEXT,
              "request over " + maxRequestBytes + " bytes\n",
              true);
          return;
        }
        int scanFrom = Math.max(0, head.writerIndex() - 3);
        head.writeBytes(bytes);
        if (endOfHead(scanFrom)) {
          int lineEnd = head.indexOf(0, head.writerIndex(), (byte) '\r');
          serve(ctx, head.toString(0, lineEnd, StandardCharsets.ISO_8859_1));
        }
      } finally {
        bytes.release();
      }
    }

    /** Whether the blank line ending the head ({@code CRLF CRLF}) is in what was read. */
    private boolean endOfHead(int from) {
      for (int i = from; i + 3 < head.writerIndex(); i++) {
        if (head.getByte(i) == '\r'
            && head.getByte(i + 1) == '\n'
            && head.getByte(i + 2) == '\r'
            && head.getByte(i + 3) == '\n') {
          return true;
        }
      }
      return false;
    }

    private void serve(ChannelHandlerContext ctx, String requestLine) {
      String[] parts = requestLine.split(" ");
      if (parts.length != 3 || !parts[2].startsWith("HTTP/")) {
        answer(ctx, 400, "Bad Request", PLAIN_TEXT, "malformed request line\n", true);
        return;
      }
      boolean withBody = !"HEAD".equals(parts[0]);
      if (withBody && !"GET".equals(parts[0])) {
        answer(ctx, 405, "Method Not Allowed", PLAIN_TEXT, "only GET and HEAD\n", true);
        return;
      }
      String path = parts[1].split("\\?", 2)[0];
      switch (path) {
        case "/metrics" -> answer(ctx, 200, "OK", PROMETHEUS_TEXT, metrics.scrape(), withBody);
        case "/health" -> {
          boolean up = ready.getAsBoolean();
          String degraded = up ? degradation.get() : null;
          answer(
              ctx,
              up ? 200 : 503,
              up ? "OK" : "Service Unavailable",
              PLAIN_TEXT,
              !up ? "not ready\n" : degraded == null ? "ready\n" : "degraded: " + degraded + "\n",
              withBody);
        }
        default -> answer(ctx, 404, "Not Found", PLAIN_TEXT, "not found\n", withBody);
      }
    }

    private void answer(
        ChannelHandlerContext ctx,
        int status,
        String reason,
        String type,
        String body,
        boolean withBody) {
      if (answered) {
        return;
      }
      answered = true;
      deadline.cancel(false);
      byte[] content = body.getBytes(StandardCharsets.UTF_8);
      String headers =
          "HTTP/1.1 "
              + status
              + " "
              + reason
              + "\r\nContent-Type: "
              + type
              + "\r\nContent-Length: "
              + content.length
              + "\r\nConnection: close\r\n\r\n";
      ByteBuf response = ctx.alloc().buffer(headers.length() + content.length);
      response.writeCharSequence(headers, StandardCharsets.ISO_8859_1);
      if (withBody) {
        response.writeBytes(content);
      }
      // A lingering close: the output ends here, what the client still sends is read and dropped
      // (closing with unread bytes would reset the connection, and the answer with it) until it
      // closes its side or the header timeout passes again.
      ctx.writeAndFlush(response)
          .addListener(
              written -> {
                if (written.isSuccess() && ctx.channel() instanceof SocketChannel socket) {
                  socket.shutdownOutput();
                  ctx.executor()
                      .schedule(() -> ctx.close(), headerTimeout.toMillis(), TimeUnit.MILLISECONDS);
                } else {
                  ctx.close();
                }
              });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (deadline != null) {
        deadline.cancel(false);
      }
      if (head != null) {
        head.release();
        head = null;
      }
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
