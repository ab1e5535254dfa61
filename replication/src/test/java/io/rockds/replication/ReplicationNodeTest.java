package io.rockds.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rockds.testsupport.Await;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three members in one JVM on loopback ports, applying records to lists in memory. */
class ReplicationNodeTest {
  @TempDir Path directory;

  /** The record whose application holds until {@link ListApplier#released} completes. */
  private static final String HOLD = "hold";

  private final List<Peer> peers = new ArrayList<>();
  private final ReplicationNode[] nodes = new ReplicationNode[5];
  private final ListApplier[] appliers = new ListApplier[5];

  /**
   * Keeps the records in order and its position (entry index and slot), as a store would in one
   * batch with them; its checkpoint is a file of the records, which it installs in place. Records
   * beginning with "dup" are refused as they are applied, as an add of an entry that exists.
   */
  static final class ListApplier implements RecordApplier {
    final List<String> records = new ArrayList<>();
    final Map<String, RecordPosition> positions = new HashMap<>();
    long index = -1;
    int slot;
    int installs;

    @Override
    public synchronized void checkpoint(Path directory) throws IOException {
      Files.createDirectories(directory);
      List<String> lines = new ArrayList<>();
      lines.add(index + " " + slot);
      lines.addAll(records);
      Files.write(directory.resolve("records"), lines);
    }

    @Override
    public synchronized boolean install(Path directory) throws IOException {
      List<String> lines = Files.readAllLines(directory.resolve("records"));
      String[] position = lines.get(0).split(" ");
      index = Long.parseLong(position[0]);
      slot = Integer.parseInt(position[1]);
      records.clear();
      records.addAll(lines.subList(1, lines.size()));
      installs++;
      return true;
    }

    synchronized int installs() {
      return installs;
    }

    /** A record this member's storage "fails" to apply, as a full disk would; null: none. */
    volatile String failOn;

    /** Completes when applying {@link #HOLD} begins. */
    final CompletableFuture<Void> holding = new CompletableFuture<>();

    /** Applying {@link #HOLD} holds until this completes. */
    final CompletableFuture<Void> released = new CompletableFuture<>();

    @Override
    public byte[] apply(RecordPosition position, byte[] record) {
      String text = new String(record, StandardCharsets.UTF_8);
      if (text.equals(HOLD)) {
        holding.complete(null);
        released.join();
      }
      synchronized (this) {
        if (position.index() < index || (position.index() == index && position.slot() <= slot)) {
          return new byte[0];
        }
        if (text.equals(failOn)) {
          throw new IllegalStateException("disk full");
        }
        index = position.index();
        slot = position.slot();
        if (text.startsWith("dup")) {
          return ("refused " + text).getBytes(StandardCharsets.UTF_8);
        }
        records.add(text);
        positions.put(text, position);
        return ("applied " + records.size()).getBytes(StandardCharsets.UTF_8);
      }
    }

    synchronized List<String> records() {
      return List.copyOf(records);
    }

    synchronized RecordPosition positionOf(String record) {
      return positions.get(record);
    }

    /** Records whose check before append refuses them; the refusal names them. */
    volatile String refuseBeforeAppend;

    @Override
    public byte[] refusal(byte[] record) {
      String text = new String(record, StandardCharsets.UTF_8);
      return text.equals(refuseBeforeAppend)
          ? ("refused " + text).getBytes(StandardCharsets.UTF_8)
          : null;
    }
  }

  private void startAll() throws IOException, InterruptedException {
    for (int i = 0; i < 3; i++) {
      peers.add(freePeer("ds" + i));
    }
    for (int i = 0; i < 3; i++) {
      appliers[i] = new ListApplier();
      start(i);
    }
    await("a leader", () -> leader() >= 0);
  }

  private static Peer freePeer(String id) throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return new Peer(id, "127.0.0.1", s.getLocalPort());
    }
  }

  private Duration writeTimeout = Duration.ofSeconds(30);
  private long snapshotInterval = ReplicationSettings.DEFAULT_SNAPSHOT_INTERVAL;

  private void start(int i) throws IOException {
    start(i, peers);
  }

  private void start(int i, List<Peer> group) throws IOException {
    start(i, group, false);
  }

  private void start(int i, List<Peer> group, boolean joining) throws IOException {
    nodes[i] =
        ReplicationNode.start(
            new ReplicationSettings(
                "ds" + i,
                group,
                directory.resolve("ds" + i),
                writeTimeout,
                Duration.ofMillis(300),
                snapshotInterval,
                SMALL_SEGMENT,
                joining),
            appliers[i],
            reason -> {});
  }

  /** Log segments of a few records, so that a purge behind a snapshot removes some. */
  private static final long SMALL_SEGMENT = 1024;

  @AfterEach
  void stopAll() throws IOException {
    for (ListApplier applier : appliers) {
      if (applier != null) {
        applier.released.complete(null);
      }
    }
    for (ReplicationNode node : nodes) {
      if (node != null) {
        node.close();
      }
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void await(String what, Await.Condition condition) throws InterruptedException {
    Await.until(what, Duration.ofSeconds(30), condition);
  }

  private int leader() {
    for (int i = 0; i < nodes.length; i++) {
      try {
        if (nodes[i] != null && nodes[i].status().role().equals("leader")) {
          return i;
        }
      } catch (IOException e) {
        // not started yet: not the leader
      }
    }
    return -1;
  }

  @Test
  void recordsSubmittedAnywhereAreAppliedEverywhereInOneOrder() throws Exception {
    startAll();
    for (int i = 0; i < 6; i++) {
      byte[] answer = nodes[i % 3].submit(bytes("r" + i));
      // read your writes: the member that submitted applied the record before answering
      assertThat(appliers[i % 3].records()).contains("r" + i);
      assertThat(new String(answer, StandardCharsets.UTF_8)).startsWith("applied ");
    }
    await(
        "every member applied six records",
        () ->
            appliers[2].records().size() == 6
                && appliers[1].records().size() == 6
                && appliers[0].records().size() == 6);
    assertThat(appliers[1].records()).isEqualTo(appliers[0].records());
    assertThat(appliers[2].records()).isEqualTo(appliers[0].records());

    GroupStatus status = nodes[0].status();
    assertThat(status.members()).extracting(MemberStatus::id).containsExactly("ds0", "ds1", "ds2");
    assertThat(status.hasLeader()).isTrue();
  }

  /**
   * Writes made at once by many threads through every member (each its own Ratis request) are all
   * answered, each after its member applied it, and every member applies all of them, once each, in
   * one order.
   */
  @Test
  void manyConcurrentWritesThroughEveryMemberAreAllAppliedEverywhereInOneOrder() throws Exception {
    startAll();
    int writers = 2 * 3 * GroupCommit.MAX_IN_FLIGHT; // more than each member sends at once
    int each = 5;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < each; i++) {
                    int member = (writer + i) % 3;
                    String record = "w" + writer + "-" + i;
                    nodes[member].submit(bytes(record));
                    // read your writes, under load too
                    assertThat(appliers[member].records()).contains(record);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(2, TimeUnit.MINUTES); // bounds the test, not the writes' speed
      }
    } finally {
      pool.shutdownNow();
    }
    int total = writers * each;
    await(
        "every member applied every write",
        () ->
            appliers[0].records().size() == total
                && appliers[1].records().size() == total
                && appliers[2].records().size() == total);
    assertThat(new HashSet<>(appliers[0].records())).hasSize(total);
    assertThat(appliers[1].records()).isEqualTo(appliers[0].records());
    assertThat(appliers[2].records()).isEqualTo(appliers[0].records());
    // Writes queued behind their member's entry on its way went together (group commit), and every
    // record has a number of its own, increasing in log order, the same on every member.
    List<RecordPosition> positions =
        appliers[0].records().stream().map(appliers[0]::positionOf).toList();
    assertThat(positions.stream().map(RecordPosition::index).distinct().count())
        .as("log entries holding the writes")
        .isLessThan(total);
    for (int i = 1; i < total; i++) {
      assertThat(positions.get(i).number()).isGreaterThan(positions.get(i - 1).number());
    }
    for (String record : appliers[0].records()) {
      assertThat(appliers[1].positionOf(record)).isEqualTo(appliers[0].positionOf(record));
      assertThat(appliers[2].positionOf(record)).isEqualTo(appliers[0].positionOf(record));
    }
  }

  /**
   * The records {@link #submitWhileHeld} sends behind {@link #HOLD}, filling the entries on their
   * way.
   */
  private static final List<String> FILLERS = fillers();

  private static List<String> fillers() {
    List<String> fillers = new ArrayList<>();
    for (int i = 1; i < GroupCommit.MAX_IN_FLIGHT; i++) {
      fillers.add("f" + i);
    }
    return fillers;
  }

  /**
   * Submits {@link #HOLD} through {@code member}, then {@link #FILLERS} until as many of its
   * entries as may be are on their way (the leader holds their application behind the hold), then
   * {@code records} one after another, each queued before the next is submitted; then lets the hold
   * go. Returns the answers to {@code records}, in order.
   */
  private List<String> submitWhileHeld(int member, String... records) throws Exception {
    int leader = leader();
    ExecutorService pool = Executors.newFixedThreadPool(records.length + FILLERS.size() + 1);
    try {
      Future<byte[]> held = pool.submit(() -> nodes[member].submit(bytes(HOLD)));
      appliers[leader].holding.get(1, TimeUnit.MINUTES);
      List<Future<byte[]>> filled = new ArrayList<>();
      for (int i = 0; i < FILLERS.size(); i++) {
        String filler = FILLERS.get(i);
        filled.add(pool.submit(() -> nodes[member].submit(bytes(filler))));
        int onTheirWay = i + 2;
        await(filler + " on its way", () -> nodes[member].entriesOnTheirWay() == onTheirWay);
      }
      List<Future<byte[]>> answers = new ArrayList<>();
      for (int i = 0; i < records.length; i++) {
        String record = records[i];
        answers.add(pool.submit(() -> nodes[member].submit(bytes(record))));
        int queued = i + 1;
        await(record + " queued", () -> nodes[member].queued() == queued);
      }
      for (ListApplier applier : appliers) {
        if (applier != null) {
          applier.released.complete(null);
        }
      }
      assertThat(new String(held.get(1, TimeUnit.MINUTES), StandardCharsets.UTF_8))
          .startsWith("applied ");
      for (Future<byte[]> filler : filled) {
        assertThat(new String(filler.get(1, TimeUnit.MINUTES), StandardCharsets.UTF_8))
            .startsWith("applied ");
      }
      List<String> texts = new ArrayList<>();
      for (Future<byte[]> answer : answers) {
        texts.add(new String(answer.get(1, TimeUnit.MINUTES), StandardCharsets.UTF_8));
      }
      return texts;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Records queued behind an entry on its way go to the group together as the next entry, in the
   * order they were submitted; each is answered apart, a record refused as it is applied (an add of
   * an entry that exists) with its refusal, the others applied; every member applies them alike.
   */
  @Test
  void recordsQueuedBehindAnEntryOnItsWayShareTheNextEntryEachWithItsOwnAnswer() throws Exception {
    startAll();
    int follower = (leader() + 1) % 3; // a follower's entries go to the leader
    List<String> answers = submitWhileHeld(follower, "b0", "b1", "dup-b", "b2");
    assertThat(answers.get(0)).startsWith("applied ");
    assertThat(answers.get(1)).startsWith("applied ");
    assertThat(answers.get(2)).isEqualTo("refused dup-b");
    assertThat(answers.get(3)).startsWith("applied ");
    // read your writes: the follower applied them before answering
    assertThat(appliers[follower].records()).containsAll(List.of(HOLD, "b0", "b1", "b2"));
    int total = 4 + FILLERS.size();
    await(
        "every member applied the entry",
        () ->
            appliers[0].records().size() == total
                && appliers[1].records().size() == total
                && appliers[2].records().size() == total);
    RecordPosition hold = appliers[0].positionOf(HOLD);
    RecordPosition b0 = appliers[0].positionOf("b0");
    assertThat(appliers[0].positionOf("b1"))
        .isEqualTo(new RecordPosition(b0.term(), b0.index(), 1, b0.number() + 1));
    assertThat(appliers[0].positionOf("b2"))
        .isEqualTo(new RecordPosition(b0.term(), b0.index(), 3, b0.number() + 3));
    assertThat(b0.slot()).isZero();
    assertThat(b0.index()).isGreaterThan(hold.index());
    assertThat(b0.number()).isGreaterThan(hold.number());
    for (int i = 1; i < 3; i++) {
      assertThat(appliers[i].records()).isEqualTo(appliers[0].records());
      for (String record : appliers[0].records()) {
        assertThat(appliers[i].positionOf(record)).isEqualTo(appliers[0].positionOf(record));
      }
    }
  }

  /**
   * A member that fails in the middle of an entry's records applied those before and, once
   * restarted, replays the entry from its log: the records before are skipped, the others applied,
   * each exactly once.
   */
  @Test
  void aMemberStoppedInTheMiddleOfAnEntryAppliesTheRestOfItOnceAfterARestart() throws Exception {
    startAll();
    int leader = leader();
    int failing = (leader + 1) % 3;
    appliers[failing].failOn = "b1";
    assertThat(submitWhileHeld(leader, "b0", "b1", "b2")).allMatch(a -> a.startsWith("applied "));
    await("the follower stopped applying", () -> !nodes[failing].status().applying());
    List<String> all = appliers[leader].records();
    assertThat(all).endsWith("b0", "b1", "b2").hasSize(4 + FILLERS.size());
    assertThat(appliers[failing].records()).isEqualTo(all.subList(0, all.size() - 2));

    nodes[failing].close();
    appliers[failing].failOn = null;
    start(failing);
    await(
        "the follower applied every record",
        () -> appliers[failing].records().size() == all.size());
    assertThat(appliers[failing].records()).isEqualTo(all);
    assertThat(appliers[failing].positionOf("b2")).isEqualTo(appliers[leader].positionOf("b2"));
  }

  @Test
  void aRecordTheLeaderRefusesBeforeAppendIsAnsweredAndNeverApplied() throws Exception {
    startAll();
    nodes[0].submit(bytes("first"));
    for (int i = 0; i < 3; i++) {
      appliers[i].refuseBeforeAppend = "refused-here"; // whoever leads when it arrives
    }
    int follower = (leader() + 1) % 3;
    // Submitted through a follower, checked by the leader: its answer comes back, nothing appended.
    // (Not shown by the commit index: the leader's entry with the commit index of "first" may
    // commit meanwhile. A record appended would be applied: the appliers refuse nothing.)
    assertThat(new String(nodes[follower].submit(bytes("refused-here")), StandardCharsets.UTF_8))
        .isEqualTo("refused refused-here");
    nodes[follower].submit(bytes("second"));
    await(
        "every member applied two records",
        () ->
            appliers[0].records().size() == 2
                && appliers[1].records().size() == 2
                && appliers[2].records().size() == 2);
    for (ListApplier applier : List.of(appliers[0], appliers[1], appliers[2])) {
      assertThat(applier.records()).containsExactly("first", "second");
    }
  }

  @Test
  void aNewLeaderTakesOverAndAStoppedMemberCatchesUpFromTheLog() throws Exception {
    startAll();
    nodes[0].submit(bytes("before"));
    int old = leader();
    nodes[old].close();
    nodes[old] = null;
    int other = (old + 1) % 3;
    nodes[other].submit(bytes("after"));
    await("a new leader", () -> leader() >= 0);
    assertThat(leader()).isNotEqualTo(old);

    start(old);
    await("the restarted member caught up", () -> appliers[old].records().size() == 2);
    assertThat(appliers[old].records()).containsExactly("before", "after");
  }

  @Test
  void aMemberWithoutMajorityRefusesWritesAfterTheTimeout() throws Exception {
    writeTimeout = Duration.ofSeconds(3);
    startAll();
    nodes[0].submit(bytes("together"));
    nodes[1].close();
    nodes[1] = null;
    nodes[2].close();
    nodes[2] = null;
    assertThatThrownBy(() -> nodes[0].submit(bytes("alone")))
        .isInstanceOf(ReplicationUnavailableException.class)
        .hasMessageContaining(
            "no majority of the 3 members of the replication group reachable from ds0");
    assertThat(appliers[0].records()).containsExactly("together");
  }

  @Test
  void theRefusalCountsTheCurrentMembersNotTheBootstrapServers() throws Exception {
    writeTimeout = Duration.ofSeconds(3);
    startAll();
    List<Peer> grown = new ArrayList<>(peers);
    grown.add(freePeer("ds3"));
    appliers[3] = new ListApplier();
    start(3, grown, true); // four bootstrap servers
    nodes[0].addServer(grown.get(3));
    nodes[3].removeServer("ds0");
    await("ds3 knows the group of three", () -> nodes[3].status().members().size() == 3);
    for (int i = 0; i < 3; i++) {
      nodes[i].close();
      nodes[i] = null;
    }
    assertThatThrownBy(() -> nodes[3].submit(bytes("alone")))
        .isInstanceOf(ReplicationUnavailableException.class)
        .hasMessageContaining(
            "no majority of the 3 members of the replication group reachable from ds3");
  }

  @Test
  void aMemberBehindThePurgedLogInstallsTheLeadersSnapshot() throws Exception {
    snapshotInterval = 10;
    startAll();
    nodes[0].submit(bytes("r0"));
    await("ds2 applied r0", () -> appliers[2].records().size() == 1);
    nodes[2].close();
    nodes[2] = null;
    for (int i = 1; i < 60; i++) {
      nodes[i % 2].submit(bytes("r" + i));
    }
    int leader = leader();
    await(
        "the leader purged its log behind a snapshot",
        () -> nodes[leader].status().logStartIndex() > 5);
    assertThat(ReplicationNode.latestSnapshot(directory.resolve("ds" + leader))).isDirectory();

    start(2);
    await("ds2 caught up", () -> appliers[2].records().size() == 60);
    assertThat(appliers[2].installs()).isPositive();
    assertThat(appliers[2].records()).isEqualTo(appliers[leader].records());
    assertThat(nodes[2].status().applying()).isTrue();
  }

  @Test
  void aSnapshotOnDemandIsTheAppliedState() throws Exception {
    startAll();
    for (int i = 0; i < 5; i++) {
      nodes[0].submit(bytes("r" + i));
    }
    long index = nodes[0].takeSnapshot();
    assertThat(index).isGreaterThanOrEqualTo(5);
    Path state = ReplicationNode.latestSnapshot(directory.resolve("ds0"));
    assertThat(Files.readAllLines(state.resolve("records")).subList(1, 6))
        .containsExactly("r0", "r1", "r2", "r3", "r4");
  }

  @Test
  void membersJoinAndLeaveOnlineWithoutLosingRecords() throws Exception {
    snapshotInterval = 10;
    startAll();
    for (int i = 0; i < 30; i++) {
      nodes[i % 3].submit(bytes("r" + i));
    }
    List<Peer> grown = new ArrayList<>(peers);
    grown.add(freePeer("ds3"));
    appliers[3] = new ListApplier();
    start(3, grown, true);
    nodes[1].addServer(grown.get(3));
    await("ds3 caught up", () -> appliers[3].records().size() == 30);
    assertThat(nodes[0].status().members())
        .extracting(MemberStatus::id)
        .containsExactly("ds0", "ds1", "ds2", "ds3");
    nodes[3].submit(bytes("from ds3"));

    nodes[3].removeServer("ds0");
    await("ds0 left the group", () -> nodes[1].status().members().size() == 3);
    nodes[0].close();
    nodes[0] = null;
    nodes[2].submit(bytes("after ds0 left"));
    await(
        "ds1 and ds3 applied every record",
        () -> appliers[1].records().size() == 32 && appliers[3].records().size() == 32);
    assertThat(appliers[3].records()).isEqualTo(appliers[1].records());
    assertThatThrownBy(() -> nodes[1].removeServer("nobody"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not a member");
  }

  /**
   * Two servers added at once through two members: the leader takes one membership change at a
   * time, so the second reaches it while the first is under way (its server catching up the log).
   * It is sent again until the first ended, instead of failing, and both servers join.
   */
  @Test
  void aMembershipChangeSentWhileAnotherIsUnderWayWaitsForItAndSucceeds() throws Exception {
    startAll();
    for (int i = 0; i < 100; i++) {
      nodes[i % 3].submit(bytes("r" + i));
    }
    List<Peer> grown = new ArrayList<>(peers);
    grown.add(freePeer("ds3"));
    grown.add(freePeer("ds4"));
    for (int i = 3; i < 5; i++) {
      appliers[i] = new ListApplier();
      start(i, grown, true);
    }
    CyclicBarrier together = new CyclicBarrier(2);
    ExecutorService admins = Executors.newFixedThreadPool(2);
    try {
      List<Future<Void>> changes = new ArrayList<>();
      for (int i = 3; i < 5; i++) {
        int added = i;
        changes.add(
            admins.submit(
                () -> {
                  together.await(30, TimeUnit.SECONDS);
                  nodes[added - 3].addServer(grown.get(added));
                  return null;
                }));
      }
      for (Future<Void> change : changes) {
        change.get(2, TimeUnit.MINUTES); // bounds the test: each change waits up to that long
      }
    } finally {
      admins.shutdownNow();
    }
    assertThat(nodes[2].status().members())
        .extracting(MemberStatus::id)
        .containsExactly("ds0", "ds1", "ds2", "ds3", "ds4");
    await(
        "ds3 and ds4 caught up",
        () -> appliers[3].records().size() == 100 && appliers[4].records().size() == 100);
  }

  @Test
  void aMemberThatCannotApplyARecordStopsApplyingAndResumesAfterARestart() throws Exception {
    startAll();
    // A follower fails: the leader applies, commits and answers the writes.
    int leader = leader();
    int failing = (leader + 1) % 3;
    appliers[failing].failOn = "r1";
    for (int i = 0; i < 3; i++) {
      nodes[leader].submit(bytes("r" + i));
    }
    await("the follower stopped applying", () -> !nodes[failing].status().applying());
    assertThat(nodes[failing].status().applyFailure()).contains("disk full");
    // It skipped nothing: r2 waits behind r1.
    assertThat(appliers[failing].records()).containsExactly("r0");

    nodes[failing].close();
    appliers[failing].failOn = null;
    start(failing);
    await("the follower applied every record", () -> appliers[failing].records().size() == 3);
    assertThat(appliers[failing].records()).containsExactly("r0", "r1", "r2");
    assertThat(nodes[failing].status().applying()).isTrue();
  }
}
