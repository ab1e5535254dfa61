package io.rockds.server.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.layout.Instance;
import io.rockds.server.DirectoryServer;
import io.rockds.server.InstanceSetup;
import io.rockds.server.TestServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prometheus /metrics, /health and cn=monitor from one set of meters, against a real server. */
class MonitoringIT {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir Path dir;
  private Instance instance;
  private DirectoryServer server;

  @BeforeEach
  void start() throws Exception {
    instance = new Instance(dir.resolve("instance"));
    InstanceSetup.create(
        instance,
        InstanceSetup.loopback(new DN(TestServer.BASE), 0, 0).withHttpPort(0),
        TestServer.ROOT_PASSWORD,
        TestServer.baseEntries());
    server = DirectoryServer.start(instance);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private LDAPConnection root() throws LDAPException {
    return new LDAPConnection(
        "127.0.0.1", server.ldapPort(), TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static double sample(String scrape, String series) {
    Matcher m =
        Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE)
            .matcher(scrape);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  @Test
  void countersMoveByTheOperationsDoneAndAgreeWithTheAccessLog() throws Exception {
    int searches = 25;
    try (LDAPConnection c = root()) {
      for (int i = 0; i < searches; i++) {
        c.search(TestServer.BASE, SearchScope.BASE, "(objectClass=*)");
      }
      c.add("dn: ou=Metered," + TestServer.BASE, "objectClass: organizationalUnit", "ou: Metered");
      assertThatThrownBy(() -> c.delete("ou=Missing," + TestServer.BASE))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.NO_SUCH_OBJECT);

      HttpResponse<String> metrics = get("/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
      String scrape = metrics.body();
      assertThat(sample(scrape, "ldap_operations_seconds_count{op=\"search\",result=\"success\"}"))
          .isEqualTo(searches);
      assertThat(sample(scrape, "ldap_operations_seconds_count{op=\"add\",result=\"success\"}"))
          .isEqualTo(1);
      assertThat(
              sample(
                  scrape, "ldap_operations_seconds_count{op=\"delete\",result=\"no_such_object\"}"))
          .isEqualTo(1);
      assertThat(sample(scrape, "ldap_connections_active")).isEqualTo(1);
      assertThat(sample(scrape, "rocksdb_memtable_capacity_bytes{backend=\"userRoot\"}"))
          .isEqualTo(32L << 20);
      assertThat(sample(scrape, "ldap_search_entries_returned_total")).isEqualTo(searches);
      assertThat(scrape)
          .contains("rocksdb_block_cache_usage_bytes{backend=\"userRoot\"}")
          .contains("rocksdb_block_cache_capacity_bytes{backend=\"userRoot\"}")
          .contains("rocksdb_memtable_size_bytes{backend=\"userRoot\"}")
          .contains("rocksdb_block_cache_type_misses_total{backend=\"userRoot\",type=\"index\"}")
          .contains("rockds_entry_cache_bytes{backend=\"userRoot\"}")
          .contains("ldap_work_queue_depth")
          .contains("jvm_memory_used_bytes")
          .doesNotContain("uid=");

      // The access log has exactly as many SEARCH lines as the counter says (it is written
      // asynchronously).
      long logged = 0;
      for (int i = 0; i < 50 && logged < searches; i++) {
        logged =
            Files.readAllLines(instance.logs().resolve("access")).stream()
                .filter(l -> l.contains("] SEARCH "))
                .count();
        Thread.sleep(100);
      }
      assertThat(logged).isEqualTo(searches);
    }
  }

  /**
   * Prometheus conventions, scraped from a real server: HELP text, units in names, counters ending
   * in _total.
   */
  @Test
  void everyMetricHasHelpTextAndPrometheusNames() throws Exception {
    try (LDAPConnection c = root()) {
      c.search(TestServer.BASE, SearchScope.BASE, "(objectClass=*)");
    }
    String scrape = get("/metrics").body();
    Map<String, String> types = new java.util.TreeMap<>();
    Map<String, String> help = new java.util.TreeMap<>();
    for (String line : scrape.split("\n")) {
      String[] parts = line.split(" ", 4);
      if (line.startsWith("# TYPE ")) {
        types.put(parts[2], parts[3]);
      } else if (line.startsWith("# HELP ")) {
        help.put(parts[2], parts.length > 3 ? parts[3] : "");
      }
    }
    assertThat(types).isNotEmpty();
    types.forEach(
        (name, type) -> {
          assertThat(help.get(name)).as("HELP of " + name).isNotBlank();
          assertThat(name).as(name).matches("[a-z][a-z0-9_]*");
          if (type.equals("counter")) {
            assertThat(scrape)
                .as("samples of counter " + name)
                .containsPattern(
                    "(?m)^"
                        + Pattern.quote(name.endsWith("_total") ? name : name + "_total")
                        + "[{ ]");
          }
        });
    assertThat(types.keySet())
        .as("names, counters with their unit before _total")
        .anyMatch(n -> n.startsWith("rockds_disk_free_bytes"))
        .anyMatch(n -> n.startsWith("rockds_disk_total_bytes"))
        .anyMatch(n -> n.startsWith("rocksdb_write_stall_seconds"))
        .anyMatch(n -> n.startsWith("rocksdb_wal_syncs"))
        .anyMatch(n -> n.startsWith("rocksdb_write_bytes"))
        .anyMatch(n -> n.startsWith("rockds_tls_certificate_expiry_timestamp_seconds"))
        .anyMatch(n -> n.startsWith("rockds_backend_untrusted_indexes"))
        .anyMatch(n -> n.startsWith("ldap_searches"))
        .noneMatch(n -> n.contains("micros"));
    assertThat(sample(scrape, "rockds_disk_free_bytes{backend=\"userRoot\"}")).isPositive();
    // The self-signed certificate setup made is valid for a while.
    assertThat(sample(scrape, "rockds_tls_certificate_expiry_timestamp_seconds"))
        .isGreaterThan(java.time.Instant.now().getEpochSecond());
  }

  /**
   * The Grafana dashboard and the alert rules in monitoring/ name only metrics a real server
   * serves.
   */
  @Test
  void theDashboardAndTheAlertRulesUseOnlyServedMetrics() throws Exception {
    try (LDAPConnection c = root()) {
      c.search(TestServer.BASE, SearchScope.BASE, "(objectClass=*)");
    }
    String scrape = get("/metrics").body();
    Path monitoring = Path.of("..", "monitoring");
    String dashboard = Files.readString(monitoring.resolve("grafana-dashboard.json"));
    com.unboundid.util.json.JSONObject parsed = new com.unboundid.util.json.JSONObject(dashboard);
    assertThat(parsed.getFieldAsString("title")).isEqualTo("RockDS");
    String alerts = Files.readString(monitoring.resolve("prometheus-alerts.yml"));
    assertThat(alerts)
        .contains(
            "- alert: RockDSDiskSpaceLow",
            "- alert: RockDSWriteStalls",
            "- alert: RockDSOperationErrors",
            "- alert: RockDSCertificateExpiresSoon");
    Pattern metric = Pattern.compile("\\b(?:ldap|rockds|rocksdb|jvm)_[a-z_]+\\b");
    java.util.Set<String> named = new java.util.TreeSet<>();
    for (String text : List.of(dashboard, alerts)) {
      Matcher m = metric.matcher(text);
      while (m.find()) {
        named.add(m.group());
      }
    }
    assertThat(named).hasSizeGreaterThan(15);
    for (String name : named) {
      assertThat(scrape).as(name + " is served").containsPattern("(?m)^" + name + "[{ ]");
    }
  }

  @Test
  void anUnbindIsLoggedAndNamesTheDisconnectReason() throws Exception {
    try (LDAPConnection c = root()) {
      c.search(TestServer.BASE, SearchScope.BASE, "(objectClass=*)");
    }
    Pattern unbound = Pattern.compile("\\] DISCONNECT (conn=\\d+) reason=\"Client Unbind\"");
    String connection = null;
    List<String> lines = List.of();
    for (int i = 0; i < 50 && connection == null; i++) {
      Thread.sleep(100);
      lines = Files.readAllLines(instance.logs().resolve("access"));
      for (String line : lines) {
        Matcher m = unbound.matcher(line);
        if (m.find()) {
          connection = m.group(1);
        }
      }
    }
    assertThat(connection).as("a DISCONNECT with reason Client Unbind").isNotNull();
    String unbind = "] UNBIND " + connection + " op=";
    assertThat(lines).anyMatch(l -> l.contains(unbind) && l.matches(".* msgID=\\d+$"));
  }

  @Test
  void cnMonitorIsReadableByRootOnlyAndCarriesTheFiguresOperatorsExpect() throws Exception {
    try (LDAPConnection c = root()) {
      c.search(TestServer.BASE, SearchScope.SUB, "(ou=People)");
      // A read by DN goes through the entry cache (a miss: small entries are not kept).
      assertThat(c.getEntry(TestServer.BASE)).isNotNull();
      SearchResult monitor = c.search("cn=monitor", SearchScope.SUB, "(objectClass=*)");
      assertThat(monitor.getSearchEntries())
          .extracting(SearchResultEntry::getDN)
          .contains(
              "cn=monitor",
              "cn=Operations,cn=monitor",
              "cn=userRoot Backend,cn=monitor",
              "cn=Work Queue,cn=monitor",
              "cn=JVM Memory Usage,cn=monitor");
      SearchResultEntry top = c.getEntry("cn=monitor", "*", "+");
      assertThat(top.getAttributeValue("vendorName")).isEqualTo("RockDS");
      assertThat(top.getAttributeValueAsLong("currentConnections")).isEqualTo(1);
      assertThat(top.getAttributeValueAsLong("searchesCompleted")).isGreaterThanOrEqualTo(1);
      assertThat(top.getAttributeValue("startTime")).endsWith("Z");
      SearchResultEntry backend = c.getEntry("cn=userRoot Backend,cn=monitor", "*", "+");
      assertThat(backend.getAttributeValueAsLong("ds-backend-entry-count")).isEqualTo(3);
      // The caches derived from the memory budget, their fill and hit ratios.
      assertThat(backend.getAttributeValueAsLong("entryCacheMaxBytes")).isPositive();
      assertThat(backend.getAttributeValueAsLong("entryCacheBytes"))
          .as("the budget's entry cache keeps large entries (groups) only, and there are none")
          .isZero();
      assertThat(backend.getAttributeValueAsLong("ds-backend-memtable-size"))
          .as("a served backend's memtables follow its data: the least for three entries")
          .isEqualTo(32L << 20);
      assertThat(backend.getAttributeValueAsLong("ds-backend-block-cache-size"))
          .as("blocks and the memtables charged to the cache share one bound")
          .isGreaterThanOrEqualTo((1L << 20) + (32L << 20));
      assertThat(backend.getAttributeValueAsLong("ds-backend-memtable-usage")).isPositive();
      assertThat(Double.parseDouble(backend.getAttributeValue("entryCacheHitRatio")))
          .isBetween(0.0, 1.0);
      for (String type : List.of("data", "index", "filter")) {
        assertThat(backend.getAttributeValue("ds-backend-block-cache-" + type + "-hit-ratio"))
            .matches("[01]\\.\\d{3}");
      }
      assertThat(preloadOutcome(c))
          .as(
              "the preload after start (preload-time-limit: 1 m by default) read the whole database")
          .isEqualTo("every tree read");
    }
    try (LDAPConnection anonymous = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      assertThatThrownBy(() -> anonymous.search("cn=monitor", SearchScope.BASE, "(objectClass=*)"))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  @Test
  void healthIsReadyOnceListeningAndGoneAfterShutdown() throws Exception {
    HttpResponse<String> health = get("/health");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("ready\n");
    int port = server.httpPort();
    server.close();
    server = null;
    assertThatThrownBy(
            () ->
                HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(IOException.class);
  }

  /** The backend's preload state once it is no longer running (bounded wait). */
  private static String preloadOutcome(LDAPConnection c) throws Exception {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
    String state;
    do {
      state =
          c.getEntry("cn=userRoot Backend,cn=monitor", "ds-backend-preload-state")
              .getAttributeValue("ds-backend-preload-state");
    } while ("running".equals(state) && System.nanoTime() < deadline);
    return state;
  }
}
