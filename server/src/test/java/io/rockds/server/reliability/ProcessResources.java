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
}
