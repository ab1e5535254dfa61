package io.rockds.server.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class MetricsHttpServerTest {
  @Test
  void healthFollowsReadinessAndOnlyGetIsServed() throws Exception {
    AtomicBoolean ready = new AtomicBoolean(false);
    ServerMetrics metrics = new ServerMetrics(true);
    try (MetricsHttpServer http = new MetricsHttpServer("127.0.0.1", 0, metrics, ready::get)) {
      HttpClient client = HttpClient.newHttpClient();
      URI health = URI.create("http://127.0.0.1:" + http.port() + "/health");
      assertThat(
              client
                  .send(
                      HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(503);
      ready.set(true);
      assertThat(
              client
                  .send(
                      HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(200);
      ready.set(false);
      assertThat(
              client
                  .send(
                      HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
                  .body())
          .isEqualTo("not ready\n");
      assertThat(
              client
                  .send(
                      HttpRequest.newBuilder(health)
                          .POST(HttpRequest.BodyPublishers.noBody())
                          .build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(405);
    } finally {
      metrics.close();
    }
  }

  @Test
  void aServerThatRefusesWritesIsReadyButDegradedWithItsReason() throws Exception {
    AtomicReference<String> refusal = new AtomicReference<>();
    ServerMetrics metrics = new ServerMetrics(true);
    try (MetricsHttpServer http =
        new MetricsHttpServer("127.0.0.1", 0, metrics, () -> true, refusal::get)) {
      HttpClient client = HttpClient.newHttpClient();
      HttpRequest health =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/health")).build();
      assertThat(client.send(health, HttpResponse.BodyHandlers.ofString()).body())
          .isEqualTo("ready\n");
      refusal.set("no leader");
      HttpResponse<String> degraded = client.send(health, HttpResponse.BodyHandlers.ofString());
      assertThat(degraded.statusCode()).isEqualTo(200);
      assertThat(degraded.body()).isEqualTo("degraded: no leader\n");
    } finally {
      metrics.close();
    }
  }

  /**
   * Issue 18, item 5: one client that sends half a request line used to keep /health and /metrics
   * from answering anyone else (one thread served every connection, each until its head arrived).
   */
  @Test
  void aHalfSentRequestHoldsOnlyItsOwnConnection() throws Exception {
    ServerMetrics metrics = new ServerMetrics(true);
    try (MetricsHttpServer http = new MetricsHttpServer("127.0.0.1", 0, metrics, () -> true);
        Socket slow = new Socket("127.0.0.1", http.port())) {
      slow.getOutputStream().write("GET /hea".getBytes(StandardCharsets.US_ASCII));
      slow.getOutputStream().flush();
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      for (String path : new String[] {"/health", "/metrics", "/health"}) {
        HttpResponse<String> response =
            client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
      }
    } finally {
      metrics.close();
    }
  }

  @Test
  void slowHeadersTimeOutAndOversizedRequestsAreRefused() throws Exception {
    ServerMetrics metrics = new ServerMetrics(true);
    try (MetricsHttpServer http =
        new MetricsHttpServer("127.0.0.1", 0, metrics, () -> true, Duration.ofMillis(300), 1024)) {
      try (Socket slow = new Socket("127.0.0.1", http.port())) {
        slow.getOutputStream()
            .write("GET /health HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(responseUntilClosed(slow)).startsWith("HTTP/1.1 408 ");
      }
      try (Socket big = new Socket("127.0.0.1", http.port())) {
        big.getOutputStream()
            .write(
                ("GET /health HTTP/1.1\r\nX-Filler: " + "x".repeat(2000) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        assertThat(responseUntilClosed(big)).startsWith("HTTP/1.1 431 ");
      }
      try (Socket unknown = new Socket("127.0.0.1", http.port())) {
        unknown
            .getOutputStream()
            .write("GET /secret HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(responseUntilClosed(unknown)).startsWith("HTTP/1.1 404 ");
      }
    } finally {
      metrics.close();
    }
  }

  /** What the server sends until it closes the connection (waits at most 10 s for it). */
  private static String responseUntilClosed(Socket socket) throws IOException {
    socket.setSoTimeout(10_000);
    InputStream in = socket.getInputStream();
    return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
  }

  @Test
  void metricsOffRecordNothing() {
    ServerMetrics off = new ServerMetrics(false);
    off.operationStarted("search");
    off.operationCompleted("search", "success", 1000);
    assertThat(off.completed("search")).isZero();
    assertThat(off.scrape()).doesNotContain("ldap_operations_seconds_count");
    off.close();
  }
}
