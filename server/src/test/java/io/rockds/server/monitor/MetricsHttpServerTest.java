package io.rockds.server.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class MetricsHttpServerTest {
  @Test
  void healthFollowsReadinessAndOnlyGetIsServed() throws Exception {
    AtomicBoolean ready = new AtomicBoolean(false);
    ServerMetrics metrics = new ServerMetrics(true);
    try (MetricsHttpServer http = new MetricsHttpServer("127.0.0.1", 0, metrics, ready::get)) {
      HttpClient client = HttpClient.newHttpClient();
      URI health = URI.create("http://127.0.0.1:" + http.port() + "/health");
      assertThat(client.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
          .statusCode()).isEqualTo(503);
      ready.set(true);
      assertThat(client.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
          .statusCode()).isEqualTo(200);
      ready.set(false);
      assertThat(client.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
          .body()).isEqualTo("not ready\n");
      assertThat(client.send(HttpRequest.newBuilder(health).POST(HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(405);
    } finally {
      metrics.close();
    }
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
