package io.rockds.server.replication;

import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ConfigStore;
import io.rockds.config.ReplicationConfig;
import io.rockds.layout.Instance;
import io.rockds.replication.GroupStatus;
import io.rockds.server.DirectoryServer;
import io.rockds.server.InstanceSetup;
import io.rockds.server.TestServer;
import io.rockds.testsupport.Await;
import io.rockds.testsupport.ReplicaContent;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Three real servers in one JVM, each with its own instance directory, replicating over loopback
 * ports, and what the replication tests ask of them: connections, reads (plain, or waiting for
 * every write the group committed), their entries and changelogs, waits for what a server does
 * (with a deadline), stops and restarts.
 */
final class ReplicationGroup implements AutoCloseable {
  static final String BASE = TestServer.BASE;
  static final Duration WAIT = Duration.ofSeconds(60);
  static final String READ_AFTER_WRITE = "2.25.28759973430515076363666229464208347148";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final Instance[] instances = new Instance[3];
  private final DirectoryServer[] servers = new DirectoryServer[3];
  private final List<String> addresses = new ArrayList<>();

  private ReplicationGroup() {}

  /** Sets up three replicas under {@code directory} (no entries: data enters through the log). */
  static ReplicationGroup start(Path directory, Duration writeTimeout) throws Exception {
    return start(directory, writeTimeout, ReplicationConfig.DEFAULT_LOG_SEGMENT_BYTES);
  }

  /**
   * As {@link #start(Path, Duration)}, with Raft log segments of {@code logSegmentBytes}: a
   * snapshot purges the log a whole segment at a time.
   */
  static ReplicationGroup start(Path directory, Duration writeTimeout, long logSegmentBytes)
      throws Exception {
    ReplicationGroup group = new ReplicationGroup();
    List<String> addresses = group.addresses;
    // Held open together, so that the three ports differ (a port closed is offered again).
    try (ServerSocket a = new ServerSocket(0);
        ServerSocket b = new ServerSocket(0);
        ServerSocket c = new ServerSocket(0)) {
      for (ServerSocket s : List.of(a, b, c)) {
        addresses.add("127.0.0.1:" + s.getLocalPort());
      }
    }
    for (int i = 0; i < 3; i++) {
      group.instances[i] = new Instance(directory.resolve("ds" + i));
      InstanceSetup.create(
          group.instances[i],
          InstanceSetup.loopback(new DN(BASE), 0, 0).withHttpPort(0),
          TestServer.ROOT_PASSWORD,
          List.of());
      int port = Integer.parseInt(addresses.get(i).substring(addresses.get(i).indexOf(':') + 1));
      ConfigStore store = ConfigStore.load(group.instances[i].configFile());
      store.put(
          new ReplicationConfig(
                  "ds" + i,
                  "127.0.0.1",
                  port,
                  addresses,
                  writeTimeout,
                  Duration.ofMillis(500),
                  ReplicationConfig.DEFAULT_SNAPSHOT_INTERVAL,
                  logSegmentBytes,
                  false)
              .toEntry());
      store.save();
    }
    try {
      for (int i = 0; i < 3; i++) {
        group.start(i);
      }
    } catch (Exception | Error e) {
      group.close();
      throw e;
    }
    return group;
  }

  DirectoryServer server(int i) {
    return servers[i];
  }

  Instance instance(int i) {
    return instances[i];
  }

  /** Server {@code i}'s replication address (HOST:PORT), its ID in the group. */
  String address(int i) {
    return addresses.get(i);
  }

  /** Starts server {@code i} (again). */
  void start(int i) throws Exception {
    servers[i] = DirectoryServer.start(instances[i]);
  }

  /** Stops server {@code i}. */
  void stop(int i) {
    servers[i].close();
    servers[i] = null;
  }

  /**
   * Waits until server {@code i} asks to be restarted (it received a snapshot to install before its
   * backends open), then restarts it as bin/start-ds' process does; returns the reason it gave.
   */
  String restartWhenAsked(int i) throws Exception {
    String reason = servers[i].restartRequested().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    stop(i);
    start(i);
    return reason;
  }

  /** Deletes the database of stopped server {@code i}'s backend userRoot, as a lost disk would. */
  void deleteDatabase(int i) throws IOException {
    try (Stream<Path> files = Files.walk(instances[i].root().resolve("db").resolve("userRoot"))) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Override
  public void close() {
    for (int i = 0; i < 3; i++) {
      if (servers[i] != null) {
        stop(i);
      }
    }
  }

  /** A connection to server {@code i} bound as the root user. */
  LDAPConnection connect(int i) throws LDAPException {
    return new LDAPConnection(
        "127.0.0.1", servers[i].ldapPort(), TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
  }

  Entry read(int i, String dn) throws LDAPException {
    try (LDAPConnection c = connect(i)) {
      return c.getEntry(dn, "*", "+");
    }
  }

  /** Binds as {@code dn} on server {@code i}; the result code (a refusal is no exception here). */
  ResultCode bind(int i, String dn, String password) throws LDAPException {
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", servers[i].ldapPort())) {
      return c.bind(dn, password).getResultCode();
    } catch (LDAPException e) {
      return e.getResultCode();
    }
  }

  /** A search of one entry that waits for every write the group committed before it. */
  static SearchRequest readAfterWrite(String dn) throws LDAPException {
    SearchRequest request = new SearchRequest(dn, SearchScope.BASE, "(objectClass=*)");
    request.addControl(new Control(READ_AFTER_WRITE, true));
    return request;
  }

  /** Server {@code i}'s copy of {@code dn}, once it applied every write committed before. */
  Entry readCommitted(int i, String dn) throws LDAPException {
    try (LDAPConnection c = connect(i)) {
      SearchRequest request = readAfterWrite(dn);
      request.setAttributes("*", "+");
      return c.search(request).getSearchEntries().get(0);
    }
  }

  /** Waits until {@code dn} is on server {@code i}; returns it. */
  Entry awaitEntry(int i, String dn) throws InterruptedException {
    return Await.value(dn + " reached ds" + i, WAIT, () -> read(i, dn));
  }

  /** Waits until a running server leads the group; returns which. */
  int awaitLeader() throws InterruptedException {
    return Await.value(
        "a leader",
        WAIT,
        () -> {
          for (int i = 0; i < 3; i++) {
            if (servers[i] != null) {
              GroupStatus status = servers[i].replication().status();
              if (status != null && status.role().equals("leader")) {
                return i;
              }
            }
          }
          return null;
        });
  }

  /** GET of /health or /metrics on server {@code i}: "status body". */
  String http(int i, String path) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + servers[i].httpPort() + path))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + " " + response.body();
  }

  /** Waits until server {@code i}'s /health starts with {@code expected}; returns it. */
  String awaitHealth(int i, String expected) throws InterruptedException {
    return Await.value(
        "ds" + i + "'s /health starts with " + expected,
        WAIT,
        () -> {
          String health = http(i, "/health");
          return health.startsWith(expected) ? health : null;
        });
  }

  /** "number type targetDN" of every change in server {@code i}'s cn=changelog. */
  List<String> changelog(int i) throws LDAPException {
    try (LDAPConnection c = connect(i)) {
      return ReplicaContent.changelog(c);
    }
  }

  /** Waits until server {@code i}'s cn=changelog is {@code expected}. */
  void awaitChangelog(int i, List<String> expected) throws InterruptedException {
    Await.until(
        "ds" + i + "'s changelog is " + expected, WAIT, () -> changelog(i).equals(expected));
  }

  /** The root DSE's lastChangeNumber on server {@code i}. */
  long lastChangeNumber(int i) throws LDAPException {
    try (LDAPConnection c = connect(i)) {
      return c.getEntry("", "lastChangeNumber").getAttributeValueAsLong("lastChangeNumber");
    }
  }

  /** Server {@code i}'s entries ({@link ReplicaContent#entries}). */
  TreeMap<String, String> content(int i) throws LDAPException {
    try (LDAPConnection c = connect(i)) {
      return ReplicaContent.entries(c, BASE);
    }
  }

  /** Waits until server {@code i} holds exactly {@code expected}. */
  void awaitContent(int i, TreeMap<String, String> expected) throws InterruptedException {
    Await.until("ds" + i + " holds the expected entries", WAIT, () -> content(i).equals(expected));
  }

  /** An inetOrgPerson below the base, whose password is {@code secret-<uid>}. */
  static Entry user(String uid) throws Exception {
    return new Entry(
        "dn: uid=" + uid + "," + BASE,
        "objectClass: inetOrgPerson",
        "uid: " + uid,
        "cn: " + uid,
        "sn: " + uid,
        "userPassword: secret-" + uid);
  }

  /**
   * Adds the base entry through server {@code i}, then a {@link #user} for each of {@code uids}.
   */
  void addBase(int i, String... uids) throws Exception {
    try (LDAPConnection c = connect(i)) {
      c.add("dn: " + BASE, "objectClass: top", "objectClass: domain", "dc: example");
      for (String uid : uids) {
        c.add(user(uid));
      }
    }
  }
}
