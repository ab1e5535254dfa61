package io.rockds.server;

import io.netty.util.ResourceLeakDetector;
import io.rockds.layout.Instance;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the server in the foreground: {@code Main [--instance DIR]}. SIGTERM and SIGINT shut it down
 * cleanly (in-flight work finished, clients notified, database closed and unlocked); a shutdown
 * that could not close the database safely ends with exit status 1. A replicated server that must
 * install a snapshot before its backends open restarts in the same process. A startup failure
 * prints one line naming the cause, never a stack trace, and exits with 1.
 */
public final class Main {
  private Main() {}

  private static final String LEAK_DETECTION = "io.netty.leakDetection.level";

  public static void main(String[] args) {
    Path instanceDir = Path.of("instance");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--instance" -> instanceDir = Path.of(args[++i]);
        case "--help", "-h" -> {
          System.out.println("usage: rockds-server [--instance DIR]   (default: ./instance)");
          return;
        }
        default -> {
          System.err.println("rockds: unknown option " + args[i] + " (try --help)");
          System.exit(2);
        }
      }
    }
    // Netty's leak detector samples buffer allocations with their stack traces: 1.2 % of a uid
    // search's CPU. The tests run it at its most thorough; a server runs without it unless asked.
    if (System.getProperty(LEAK_DETECTION) == null) {
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    }
    Instance instance = new Instance(instanceDir);
    DirectoryServer first = start(instance);
    if (first == null) {
      System.exit(1);
      return;
    }
    AtomicReference<DirectoryServer> current = new AtomicReference<>(first);
    CompletableFuture<Void> stopped = new CompletableFuture<>();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  DirectoryServer server;
                  synchronized (current) {
                    server = current.getAndSet(null);
                  }
                  if (server == null) { // a restart failed to start it
                    stopped.complete(null);
                    return;
                  }
                  server.close();
                  deletePidFile(instance);
                  if (!server.closedCleanly()) {
                    System.err.println(
                        "rockds: the shutdown was not clean: operations still ran after being cancelled");
                    Runtime.getRuntime().halt(1);
                  }
                  stopped.complete(null);
                },
                "rockds-shutdown"));
    try {
      Files.writeString(
          instance.pidFile(), Long.toString(ProcessHandle.current().pid()), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      System.err.println("rockds: cannot write " + instance.pidFile() + ": " + e.getMessage());
    }
    System.out.println(
        "RockDS started on "
            + first.describeListeners().replace('\n', ' ')
            + " (instance "
            + instance.root()
            + ")");
    DirectoryServer server = first;
    while (true) {
      CompletableFuture.anyOf(server.restartRequested(), stopped).join();
      synchronized (current) {
        if (current.get() == null) {
          break; // the shutdown hook has it
        }
        // A replication snapshot to install before the backends open: same process, same pid.
        System.out.println("RockDS restarts: " + server.restartRequested().join());
        server.close();
        server = start(instance);
        current.set(server);
      }
      if (server == null) {
        deletePidFile(instance);
        System.exit(1);
        return;
      }
    }
    stopped.join();
  }

  /**
   * Starts the server; null after printing one line naming the cause. An error too (a native
   * library that does not match its classes, memory) ends the start with its line: escaping main,
   * it would leave the process up on the threads already started.
   */
  private static DirectoryServer start(Instance instance) {
    try {
      return DirectoryServer.start(instance);
    } catch (Exception e) {
      System.err.println("rockds: cannot start: " + e.getMessage());
      return null;
    } catch (Error e) {
      System.err.println("rockds: cannot start: " + e);
      return null;
    }
  }

  /** Removes the pid file if it still names this process (a newer server may have replaced it). */
  private static void deletePidFile(Instance instance) {
    try {
      if (Files.readString(instance.pidFile(), StandardCharsets.UTF_8)
          .strip()
          .equals(Long.toString(ProcessHandle.current().pid()))) {
        Files.delete(instance.pidFile());
      }
    } catch (java.io.IOException ignored) {
      // Already gone; the pid file only informs, the lock decides.
    }
  }
}
