package io.rockds.server.replication;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.DirectoryServer;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Linearizable reads (the read-after-write control, Ratis' read index) on every server of a group
 * whose members are restarted one after another, the followers and then the leader, twice over,
 * while readers keep reading through every server: a server just started reads at once the write it
 * missed while it was down, and after each restart a write made through one server is read, within
 * the write timeout, through every server.
 */
class LinearizableReadIT {
  private static final String BASE = ReplicationGroup.BASE;
  private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(10);

  @TempDir Path directory;

  @AutoClose private ReplicationGroup group;

  @Test
  void everyServerServesLinearizableReadsAfterEachMemberRestarted() throws Exception {
    group = ReplicationGroup.start(directory, WRITE_TIMEOUT);
    group.awaitLeader();
    group.addBase(0);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger served = new AtomicInteger();
    ExecutorService readers = Executors.newFixedThreadPool(3);
    List<Future<?>> running = new ArrayList<>();
    try {
      // Reads in flight on every server at each stop, election and start.
      for (int i = 0; i < 3; i++) {
        int server = i;
        running.add(readers.submit(() -> keepReading(server, stop, served)));
      }
      int written = 0;
      for (int pass = 0; pass < 2; pass++) {
        int leader = group.awaitLeader();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          if (i != leader) {
            order.add(i);
          }
        }
        order.add(leader);
        for (int restarted : order) {
          group.stop(restarted);
          int other = (restarted + 1) % 3;
          String missed = write(other, "while-ds" + restarted + "-was-down-" + written++);
          group.start(restarted);
          // At once, before it may know the leader: it waits for the write it missed.
          assertReadCommitted(restarted, missed);
          String dn = write(other, "after-ds" + restarted + "-restarted-" + written++);
          for (int i = 0; i < 3; i++) {
            assertReadCommitted(i, dn);
          }
        }
      }
    } finally {
      stop.set(true);
      readers.shutdown();
      assertThat(readers.awaitTermination(2 * WRITE_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
          .isTrue();
    }
    for (Future<?> reader : running) {
      reader.get();
    }
    assertThat(served.get()).as("reads served in the background").isPositive();
  }

  /** Adds a user through server {@code i}; returns its DN. */
  private String write(int i, String uid) throws Exception {
    try (LDAPConnection c = group.connect(i)) {
      c.add(ReplicationGroup.user(uid));
    }
    return "uid=" + uid + "," + BASE;
  }

  /** A read with the read-after-write control on server {@code i} sees {@code dn} in time. */
  private void assertReadCommitted(int i, String dn) throws LDAPException {
    long start = System.nanoTime();
    try (LDAPConnection c = group.connect(i)) {
      assertThat(c.search(ReplicationGroup.readAfterWrite(dn)).getEntryCount())
          .as("ds" + i + " reads " + dn)
          .isEqualTo(1);
    } catch (LDAPException e) {
      throw new AssertionError(
          "ds"
              + i
              + " did not serve a linearizable read of "
              + dn
              + " after "
              + Duration.ofNanos(System.nanoTime() - start).toMillis()
              + " ms: "
              + e.getResultCode()
              + " "
              + e.getDiagnosticMessage(),
          e);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WRITE_TIMEOUT);
  }

  /**
   * Reads the base entry with the read-after-write control through server {@code i} until {@code
   * stop}, counting the reads served; a read refused or cut short (the server stopped, no leader
   * yet) is not counted.
   */
  private Void keepReading(int i, AtomicBoolean stop, AtomicInteger served)
      throws InterruptedException {
    while (!stop.get()) {
      DirectoryServer server = group.server(i);
      if (server != null) {
        try (LDAPConnection c = new LDAPConnection("127.0.0.1", server.ldapPort())) {
          c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
          for (int k = 0; k < 20 && !stop.get(); k++) {
            c.search(ReplicationGroup.readAfterWrite(BASE));
            served.incrementAndGet();
          }
          continue;
        } catch (LDAPException | RuntimeException e) {
          // stopped under the reader, or refused while the group elects: read again
        }
      }
      Thread.sleep(20); // while the server is down: the interval at which the reader looks again
    }
    return null;
  }
}
