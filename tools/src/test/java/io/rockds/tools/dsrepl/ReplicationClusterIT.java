package io.rockds.tools.dsrepl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ConfigStore;
import io.rockds.config.ReplicationConfig;
import io.rockds.layout.Instance;
import io.rockds.testsupport.Await;
import io.rockds.testsupport.Processes;
import io.rockds.testsupport.ReplicaContent;
import io.rockds.tools.fixtures.ToolOutput;
import io.rockds.tools.setup.Setup;
import io.rockds.tools.verify.VerifyIndex;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replication group of real server processes ({@code io.rockds.server.Main}, as {@code
 * bin/start-ds} runs it) on loopback ports, set up with {@code setup} and changed with {@code
 * dsrepl}: writes anywhere, the leader killed with -9 under load, a member catching up from the log
 * and from a snapshot, a member added and one removed under load (and the removed one stopped
 * cleanly), and a member cut off from the others by the network ({@link PartitionableNetwork}) and
 * healed. The tests run in order on one group. {@code -Drockds.it.catchUpWrites=10000} runs the
 * catch-up with the 10,000 writes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicationClusterIT {
  private static final String BASE = "dc=example,dc=com";
  private static final String PEOPLE = "ou=People," + BASE;
  private static final String ROOT_DN = "cn=Directory Manager";
  private static final String PASSWORD = "secret-12345";
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(10);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final int CATCH_UP_WRITES = Integer.getInteger("rockds.it.catchUpWrites", 600);

  @TempDir static Path dir;

  /** The members of the group now. */
  private final List<Node> nodes = new ArrayList<>();

  /** Every server started, members or not, for the cleanup. */
  private final List<Node> started = new ArrayList<>();

  private final AtomicInteger serial = new AtomicInteger();

  /** Between the servers: every replication connection passes it, so a test can cut one off. */
  private PartitionableNetwork network;

  /** One server: its instance, ports and process. */
  final class Node {
    final int index;
    final String name;
    final Path instance;
    final int ldapPort;
    final int httpPort;
    final int replicationPort;
    Process process;

    Node(int index) throws IOException {
      this.index = index;
      this.name = "ds" + index;
      this.instance = dir.resolve(name);
      this.ldapPort = Processes.freePort();
      this.httpPort = Processes.freePort();
      this.replicationPort = Processes.freePort();
      network.add(index, replicationPort);
    }

    String address() {
      return PartitionableNetwork.host(index) + ":" + replicationPort;
    }

    /** Creates the instance with setup, as an operator would, with the group's servers. */
    void setUp(List<String> bootstrap, String... options) throws Exception {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "--instance",
                  instance.toString(),
                  "--rootUserPassword",
                  PASSWORD,
                  "--ldapPort",
                  Integer.toString(ldapPort),
                  "--ldapsPort",
                  "0",
                  "--httpPort",
                  Integer.toString(httpPort),
                  "--serverId",
                  name,
                  "--replicationHost",
                  PartitionableNetwork.host(index),
                  "--replicationPort",
                  Integer.toString(replicationPort),
                  "--quiet"));
      args.addAll(List.of(options));
      for (String server : bootstrap) {
        args.add("--bootstrapReplicationServer");
        args.add(server);
      }
      ToolOutput setup = ToolOutput.run(new Setup(), args.toArray(String[]::new));
      assertThat(setup.exitCode()).as(setup.err()).isZero();
      // Small log segments, so that a snapshot lets the leader purge its log.
      ConfigStore store = ConfigStore.load(new Instance(instance).configFile());
      ReplicationConfig config = ReplicationConfig.read(store);
      store.put(
          new ReplicationConfig(
                  config.serverId(),
                  config.host(),
                  config.port(),
                  config.bootstrapServers(),
                  WRITE_TIMEOUT,
                  Duration.ofSeconds(1),
                  ReplicationConfig.DEFAULT_SNAPSHOT_INTERVAL,
                  64 * 1024,
                  config.joining())
              .toEntry());
      store.save();
    }

    void start() throws Exception {
      String classpath =
          System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
      Path out = instance.resolve("logs").resolve("server.out");
      Files.createDirectories(out.getParent());
      process =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-XX:+UseSerialGC",
                  "-Djdk.net.hosts.file=" + network.hostsFile(index),
                  "-cp",
                  classpath,
                  "io.rockds.server.Main",
                  "--instance",
                  instance.toString())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
              .start();
      started.add(this);
      await(name + " answers LDAP", this::answers);
    }

    boolean answers() {
      if (!process.isAlive()) {
        throw new AssertionError(name + " exited: " + serverOut());
      }
      try (LDAPConnection c = connect()) {
        return c.getRootDSE() != null;
      } catch (LDAPException e) {
        return false;
      }
    }

    String serverOut() {
      try {
        return Files.readString(instance.resolve("logs").resolve("server.out"));
      } catch (IOException e) {
        return e.toString();
      }
    }

    private String threadDump() throws Exception {
      Path jstack = Path.of(System.getProperty("java.home"), "bin", "jstack");
      Process dump = new ProcessBuilder(jstack.toString(), Long.toString(process.pid())).start();
      String threads = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      dump.waitFor(30, TimeUnit.SECONDS);
      return threads;
    }

    /** kill -9. */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    /** SIGTERM: a clean stop. */
    void stop() throws Exception {
      stop(Duration.ofSeconds(60));
    }

    /** SIGTERM: a clean stop within {@code limit}, else the failure shows the server's threads. */
    void stop(Duration limit) throws Exception {
      process.destroy();
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        String threads = threadDump();
        process.destroyForcibly();
        throw new AssertionError(
            name + " did not stop within " + limit + "; its threads:\n" + threads);
      }
      // 143: ended by SIGTERM after the shutdown hook closed the server cleanly (1 if not)
      assertThat(process.exitValue()).as(serverOut()).isIn(0, 143);
    }

    /** {@code GET /health}: the status code and the body, e.g. "200 ready". */
    String health() {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/health"))
              .timeout(Duration.ofSeconds(5))
              .build();
      try {
        HttpResponse<String> response =
            HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return response.statusCode() + " " + response.body().strip();
      } catch (IOException e) {
        return e.toString();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return e.toString();
      }
    }

    LDAPConnection connect() throws LDAPException {
      LDAPConnection c = new LDAPConnection("127.0.0.1", ldapPort);
      try {
        c.bind(ROOT_DN, PASSWORD);
        return c;
      } catch (LDAPException e) {
        c.close();
        throw e;
      }
    }

    Entry monitor() throws LDAPException {
      try (LDAPConnection c = connect()) {
        return c.getEntry("cn=Replication,cn=monitor", "*");
      }
    }

    boolean isLeader() {
      try {
        return "leader".equals(monitor().getAttributeValue("ds-replication-role"));
      } catch (LDAPException e) {
        return false;
      }
    }

    /** The node's entries ({@link ReplicaContent#entries}). */
    TreeMap<String, String> content() throws LDAPException {
      try (LDAPConnection c = connect()) {
        return ReplicaContent.entries(c, BASE);
      }
    }

    int entryCount() throws LDAPException {
      try (LDAPConnection c = connect()) {
        return c.search(BASE, SearchScope.SUB, "(objectClass=*)", "1.1").getEntryCount();
      }
    }

    boolean holds(Set<String> dns) {
      try (LDAPConnection c = connect()) {
        for (String dn : dns) {
          if (c.getEntry(dn, "1.1") == null) {
            return false;
          }
        }
        return true;
      } catch (LDAPException e) {
        return false;
      }
    }

    String[] connectionArgs(String... more) {
      List<String> args = new ArrayList<>(List.of(more));
      args.addAll(
          List.of("-h", "127.0.0.1", "-p", Integer.toString(ldapPort), "-D", ROOT_DN, "-w"));
      args.add(PASSWORD);
      args.add("--quiet");
      return args.toArray(String[]::new);
    }
  }

  @BeforeAll
  void startGroup() throws Exception {
    network = new PartitionableNetwork(dir, 4); // ds0..ds2, and ds3 that joins
    for (int i = 0; i < 3; i++) {
      nodes.add(new Node(i));
    }
    List<String> group = nodes.stream().map(Node::address).toList();
    for (Node node : nodes) {
      node.setUp(group);
    }
    for (Node node : nodes) {
      node.start();
    }
    await("a leader", () -> leader() != null);
    try (LDAPConnection c = nodes.get(1).connect()) {
      c.add("dn: " + BASE, "objectClass: domain", "dc: example");
      c.add("dn: " + PEOPLE, "objectClass: organizationalUnit", "ou: People");
    }
  }

  @AfterAll
  void stopGroup() {
    for (Node node : started) {
      if (node.process.isAlive()) {
        node.process.destroyForcibly();
      }
    }
    network.close();
  }

  private Node leader() {
    return nodes.stream().filter(n -> n.process.isAlive() && n.isLeader()).findFirst().orElse(null);
  }

  private static void await(String what, Await.Condition condition) throws InterruptedException {
    Await.until(what, WAIT, condition);
  }

  private String newPerson(LDAPConnection c) throws LDAPException {
    String uid = "user" + serial.incrementAndGet();
    String dn = "uid=" + uid + "," + PEOPLE;
    c.add(
        new Entry(
            dn,
            new Attribute("objectClass", "inetOrgPerson"),
            new Attribute("uid", uid),
            new Attribute("cn", "User " + uid),
            new Attribute("sn", uid),
            new Attribute("userPassword", "secret-" + uid)));
    return dn;
  }

  /**
   * Adds entries from {@code threads} connections spread over {@code targets} until {@code count}
   * were acknowledged, {@code stop} is set or the deadline passed; a write that fails (its server
   * died, no majority) is not retried and not counted. Returns the acknowledged DNs.
   */
  private Set<String> load(List<Node> targets, int threads, int count, AtomicBoolean stop)
      throws Exception {
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    AtomicInteger attempts = new AtomicInteger();
    long deadline = System.nanoTime() + WAIT.toNanos();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> writers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      writers.add(
          pool.submit(
              () -> {
                int next = first;
                while (acknowledged.size() < count
                    && !stop.get()
                    && System.nanoTime() < deadline
                    && attempts.incrementAndGet() < 4 * count) {
                  Node target = targets.get(next++ % targets.size());
                  try (LDAPConnection c = target.connect()) {
                    for (int i = 0; i < 50 && acknowledged.size() < count && !stop.get(); i++) {
                      acknowledged.add(newPerson(c));
                    }
                  } catch (LDAPException e) {
                    // the server is down or without majority: try the next one
                  }
                }
                return null;
              }));
    }
    for (Future<?> writer : writers) {
      writer.get();
    }
    pool.shutdown();
    return acknowledged;
  }

  private Set<String> load(List<Node> targets, int count) throws Exception {
    return load(targets, 4, count, new AtomicBoolean());
  }

  /** Every running node holds every acknowledged entry, and they all hold the same data. */
  private void assertConverged(List<Node> members, Set<String> acknowledged) throws Exception {
    for (Node node : members) {
      await(node.name + " holds every acknowledged write", () -> node.holds(acknowledged));
    }
    await(
        "the same entry count everywhere",
        () -> {
          try {
            int count = members.get(0).entryCount();
            for (Node node : members) {
              if (node.entryCount() != count) {
                return false;
              }
            }
            return true;
          } catch (LDAPException e) {
            return false;
          }
        });
    String checksum = checksum(members.get(0).content());
    for (Node node : members) {
      assertThat(checksum(node.content())).as(node.name + "'s data").isEqualTo(checksum);
      // verify-index beside the running server: entries, indexes and counts agree
      ToolOutput verify =
          ToolOutput.run(new VerifyIndex(), "--instance", node.instance.toString(), "-b", BASE);
      assertThat(verify.exitCode()).as(node.name + ": " + verify.out() + verify.err()).isZero();
      assertThat(verify.out()).contains("no inconsistency");
    }
  }

  private static String checksum(TreeMap<String, String> entries) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (var entry : entries.entrySet()) {
      sha.update((entry.getKey() + "\n" + entry.getValue()).getBytes(StandardCharsets.UTF_8));
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  @Test
  @Order(1)
  void writesOnAnyServerAreReadThereAtOnceAndReachEveryServer() throws Exception {
    Set<String> written = new TreeSet<>();
    for (Node node : nodes) {
      try (LDAPConnection c = node.connect()) {
        String dn = newPerson(c);
        // read your writes: the server that answered applied the write already
        assertThat(c.getEntry(dn)).as("read on " + node.name).isNotNull();
        written.add(dn);
      }
    }
    assertConverged(nodes, written);
  }

  @Test
  @Order(2)
  void killingTheLeaderUnderLoadLosesNoAcknowledgedWrite() throws Exception {
    Node old = leader();
    assertThat(old).isNotNull();
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService background = Executors.newSingleThreadExecutor();
    Future<Set<String>> load = background.submit(() -> load(nodes, 8, 400, stop));
    await("some writes acknowledged", () -> serial.get() > 100);
    old.kill();
    await("a new leader", () -> leader() != null);
    assertThat(leader()).isNotSameAs(old);
    await("writes go on without the old leader", () -> serial.get() > 250);
    stop.set(true);
    Set<String> acknowledged = load.get();
    background.shutdown();
    assertThat(acknowledged).isNotEmpty();

    old.start();
    assertConverged(nodes, acknowledged);
    // The killed leader replayed its log, applying each write once: every server has every change
    // once, under the same number.
    List<String> changes = changelog(nodes.get(0));
    assertThat(changes).hasSizeGreaterThan(acknowledged.size());
    assertThat(changes.stream().map(c -> c.substring(c.indexOf(' ') + 1))).doesNotHaveDuplicates();
    for (Node node : nodes) {
      await(node.name + "'s changelog", () -> changelog(node).equals(changes));
    }
  }

  /** A node's cn=changelog ({@link ReplicaContent#changelog}). */
  private static List<String> changelog(Node node) throws LDAPException {
    try (LDAPConnection c = node.connect()) {
      return ReplicaContent.changelog(c);
    }
  }

  @Test
  @Order(3)
  void aStoppedServerCatchesUpFromTheLogAndFromASnapshotOnceTheLogWasPurged() throws Exception {
    Node leader = leader();
    Node absent = nodes.stream().filter(n -> n != leader).findFirst().orElseThrow();
    List<Node> others = nodes.stream().filter(n -> n != absent).toList();

    absent.stop();
    Set<String> fromLog = load(others, CATCH_UP_WRITES);
    absent.start();
    assertConverged(nodes, fromLog);
    assertThat(absent.serverOut()).doesNotContain("RockDS restarts");

    absent.stop();
    long absentAt =
        Long.parseLong(leader.monitor().getAttributeValue("ds-replication-commit-index"));
    Set<String> fromSnapshot = load(others, CATCH_UP_WRITES);
    for (Node node : others) {
      ToolOutput snapshot = ToolOutput.run(new DsRepl(), node.connectionArgs("snapshot"));
      assertThat(snapshot.exitCode()).as(snapshot.err()).isZero();
    }
    for (Node node : others) {
      long start =
          Long.parseLong(node.monitor().getAttributeValue("ds-replication-log-start-index"));
      assertThat(start).as(node.name + " purged its log").isGreaterThan(absentAt);
    }
    absent.start();
    assertConverged(nodes, fromSnapshot);
    assertThat(absent.serverOut()).contains("RockDS restarts: installing the replication snapshot");
  }

  @Test
  @Order(4)
  void aServerJoinsAndAnotherLeavesUnderLoadWithoutLosingWrites() throws Exception {
    Node joining = new Node(3);
    List<String> group = new ArrayList<>(nodes.stream().map(Node::address).toList());
    group.add(joining.address());
    joining.setUp(group, "--joinReplicationGroup");
    joining.start();

    Node entry = nodes.get(0);
    Node leaving = nodes.get(2);
    List<Node> writers = List.of(nodes.get(0), nodes.get(1));
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService background = Executors.newSingleThreadExecutor();
    Future<Set<String>> load = background.submit(() -> load(writers, 2, 100_000, stop));

    ToolOutput add =
        ToolOutput.run(
            new DsRepl(),
            entry.connectionArgs("add-server", "--replicationServer", joining.address()));
    assertThat(add.exitCode()).as(add.err()).isZero();
    nodes.add(joining);
    ToolOutput remove =
        ToolOutput.run(
            new DsRepl(),
            entry.connectionArgs("remove-server", "--replicationServer", leaving.address()));
    assertThat(remove.exitCode()).as(remove.err()).isZero();
    nodes.remove(leaving);
    int before = serial.get();
    await("writes go on in the new group", () -> serial.get() > before + 50);
    stop.set(true);
    Set<String> acknowledged = load.get();
    background.shutdown();
    // Out of the group, it says so once its Raft server shut down (when it stood for election
    // outside the group), and stops cleanly and promptly all the same.
    await(
        leaving.name + " reports it was removed", () -> leaving.health().contains("not a member"));
    leaving.stop(Duration.ofSeconds(15));

    await(
        "the group has its new members",
        () -> {
          try {
            String[] members = entry.monitor().getAttributeValues("ds-replication-member");
            return members.length == 3
                && List.of(members).stream().anyMatch(m -> m.startsWith(joining.address()))
                && List.of(members).stream().noneMatch(m -> m.startsWith(leaving.address()));
          } catch (LDAPException e) {
            return false;
          }
        });
    assertConverged(nodes, acknowledged);
  }

  @Test
  @Order(5)
  void aServerCutOffFromTheOthersRefusesWritesServesReadsAndConvergesOnceHealed() throws Exception {
    // ds3 joined with four bootstrap servers; the group it is a member of now has three.
    Node cut = nodes.stream().filter(n -> n.index == 3).findFirst().orElseThrow();
    List<Node> others = nodes.stream().filter(n -> n != cut).toList();
    int entries = cut.entryCount();

    network.cut(cut.index);
    await(cut.name + " reports it refuses writes", () -> cut.health().startsWith("200 degraded: "));
    assertThat(cut.health()).contains("no leader").contains("a majority of the 3 servers");
    try (LDAPConnection c = cut.connect()) {
      long start = System.nanoTime();
      LDAPException refused = catchThrowableOfType(LDAPException.class, () -> newPerson(c));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(refused).as("a write on the cut server").isNotNull();
      assertThat(refused.getResultCode()).isEqualTo(ResultCode.UNAVAILABLE);
      assertThat(refused.getDiagnosticMessage())
          .contains(
              "no majority of the 3 members of the replication group reachable from "
                  + cut.address()
                  + " (it knows no leader)");
      assertThat(took).isLessThan(WRITE_TIMEOUT.plusSeconds(5));
      // Reads go on from its copy.
      assertThat(c.getEntry(PEOPLE)).isNotNull();
    }
    ToolOutput status =
        ToolOutput.run(
            new DsRepl(),
            "status",
            "-h",
            "127.0.0.1",
            "-p",
            Integer.toString(cut.ldapPort),
            "-D",
            ROOT_DN,
            "-w",
            PASSWORD);
    assertThat(status.exitCode()).as(status.err()).isZero();
    assertThat(status.out()).contains("(writes are refused)").contains("Why: no leader");

    await("a leader among the others", () -> others.stream().anyMatch(Node::isLeader));
    Set<String> acknowledged = load(others, 100);
    assertThat(acknowledged.size()).as("writes the majority took").isGreaterThanOrEqualTo(100);
    assertThat(cut.entryCount()).as("nothing reached the cut server").isEqualTo(entries);

    network.heal(cut.index);
    await(cut.name + " takes writes again", () -> cut.health().equals("200 ready"));
    assertConverged(nodes, acknowledged);
  }
}
