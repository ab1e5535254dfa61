package io.rockds.server.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** What this JVM holds: open file descriptors, heap after a full collection, the fd limit. */
final class ProcessResources {
  private ProcessResources() {}

  static long openFileDescriptors() {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The soft limit on open files (ulimit -n), from /proc/self/limits. */
  static long fileDescriptorLimit() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
        if (line.startsWith("Max open files")) {
          return Long.parseLong(line.substring("Max open files".length()).trim().split("\\s+")[0]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Fall through to the conservative default.
    }
    return 1024;
  }

  /** Heap in use after asking for full collections (a few, so finalizable garbage goes too). */
  static long heapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /**
   * Waits up to {@code timeoutMillis} for the fd count to fall to {@code atMost} (closes on the
   * server side happen asynchronously); returns the last count seen.
   */
  static long awaitFileDescriptorsAtMost(long atMost, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    long count = openFileDescriptors();
    while (count > atMost && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
      count = openFileDescriptors();
    }
    return count;
  }

  /**
   * The bytes the kernel holds unsent on the TCP socket from local port {@code localPort} to remote
   * port {@code remotePort} (its send queue, from /proc/net/tcp and tcp6), or -1 when there is no
   * such socket: a sender whose peer stopped reading is blocked once this stops growing.
   */
  static long tcpSendQueue(int localPort, int remotePort) throws IOException {
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      for (String line : Files.readAllLines(Path.of(table))) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 4
            && f[1].endsWith(":%04X".formatted(localPort))
            && f[2].endsWith(":%04X".formatted(remotePort))) {
          return Long.parseLong(f[4].substring(0, f[4].indexOf(':')), 16);
        }
      }
    }
    return -1;
  }

  /**
   * Waits up to {@code timeoutMillis} until the server side of a connection (server port {@code
   * serverPort}, client port {@code clientPort}) has a non-empty send queue that no longer grows:
   * the server has written all the peer's window takes and is held back by it.
   */
  static void awaitServerStalledOn(int serverPort, int clientPort, long timeoutMillis)
      throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    long last = -1;
    int unchanged = 0;
    while (unchanged < 5) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(
            "the server did not stall on the unread connection within "
                + timeoutMillis
                + " ms (send queue "
                + last
                + " bytes)");
      }
      Thread.sleep(50);
      long queued = tcpSendQueue(serverPort, clientPort);
      unchanged = queued > 0 && queued == last ? unchanged + 1 : 0;
      last = queued;
    }
  }
}
