package io.rockds.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three members in one JVM on loopback ports, applying records to lists in memory. */
class ReplicationNodeTest {
  @TempDir Path directory;

  private final List<Peer> peers = new ArrayList<>();
  private final ReplicationNode[] nodes = new ReplicationNode[3];
  private final ListApplier[] appliers = new ListApplier[3];

  /** Keeps the records in order and its position, as a store would in one batch with them. */
  static final class ListApplier implements RecordApplier {
    final List<String> records = new ArrayList<>();
    long position = -1;

    @Override
    public synchronized byte[] apply(long term, long index, byte[] record) {
      if (index <= position) {
        return new byte[0];
      }
      records.add(new String(record, StandardCharsets.UTF_8));
      position = index;
      return ("applied " + records.size()).getBytes(StandardCharsets.UTF_8);
    }

    synchronized List<String> records() {
      return List.copyOf(records);
    }
  }

  private void startAll() throws IOException, InterruptedException {
    for (int i = 0; i < 3; i++) {
      try (ServerSocket s = new ServerSocket(0)) {
        peers.add(new Peer("ds" + i, "127.0.0.1", s.getLocalPort()));
      }
    }
    for (int i = 0; i < 3; i++) {
      appliers[i] = new ListApplier();
      start(i);
    }
    await("a leader", () -> leader() >= 0);
  }

  private Duration writeTimeout = Duration.ofSeconds(30);

  private void start(int i) throws IOException {
    nodes[i] =
        ReplicationNode.start(
            new ReplicationSettings(
                "ds" + i, peers, directory.resolve("ds" + i), writeTimeout, Duration.ofMillis(300)),
            appliers[i]);
  }

  @AfterEach
  void stopAll() throws IOException {
    for (ReplicationNode node : nodes) {
      if (node != null) {
        node.close();
      }
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(20); // polling interval of a condition with a deadline
    }
  }

  private int leader() {
    for (int i = 0; i < 3; i++) {
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
        .hasMessageContaining("no majority of 3 servers reachable from ds0");
    assertThat(appliers[0].records()).containsExactly("together");
  }
}
