package io.rockds.server.monitor;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The HTTP endpoint Prometheus scrapes: {@code GET /metrics} (text exposition format 0.0.4) and
 * {@code GET /health} (200 {@code ready} once backends are open and listeners bound, 503
 * {@code not ready} before that and during shutdown). Loopback by default.
 */
public final class MetricsHttpServer implements AutoCloseable {
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;

  public MetricsHttpServer(String host, int port, ServerMetrics metrics, BooleanSupplier ready) throws IOException {
    server = HttpServer.create(new InetSocketAddress(host, port), 16);
    server.setExecutor(Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "rockds-metrics-http");
      t.setDaemon(true);
      return t;
    }));
    server.createContext("/metrics", exchange -> respond(exchange, 200, PROMETHEUS_TEXT, metrics.scrape()));
    server.createContext("/health", exchange -> {
      boolean up = ready.getAsBoolean();
      respond(exchange, up ? 200 : 503, "text/plain; charset=utf-8", up ? "ready\n" : "not ready\n");
    });
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void respond(HttpExchange exchange, int status, String type, String body) throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
