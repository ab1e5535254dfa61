package io.rockds.tools;

import io.rockds.layout.Instance;
import io.rockds.layout.ServerLock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The server of an instance as seen from outside its process: it runs while it holds the instance's
 * lock ({@link ServerLock}, {@code locks/server.lock}); the pid file and the started marker ({@code
 * logs/server.started}, written once every listener is bound) only add details.
 *
 * @param pid the server process, or -1 when unknown (no pid file yet, or a server embedded in a
 *     test)
 * @param since when the listeners were bound, or when the lock was found held while it starts
 * @param listeners the bound listeners as URLs, e.g. {@code ldap://127.0.0.1:1389}; empty while it
 *     starts
 */
public record RunningServer(long pid, Instant since, List<String> listeners) {

  /** The running server of {@code instance}, or empty when it is stopped (or crashed). */
  public static Optional<RunningServer> of(Instance instance) {
    if (!ServerLock.isHeld(instance)) {
      return Optional.empty();
    }
    long pid = -1;
    try {
      pid = Long.parseLong(Files.readString(instance.pidFile(), StandardCharsets.UTF_8).strip());
    } catch (IOException | NumberFormatException e) {
      // Starting, or embedded: the lock alone says it runs.
    }
    try {
      Instant since = Files.getLastModifiedTime(instance.startedFile()).toInstant();
      List<String> listeners =
          Files.readAllLines(instance.startedFile(), StandardCharsets.UTF_8).stream()
              .map(String::strip)
              .filter(l -> !l.isEmpty())
              .toList();
      return Optional.of(new RunningServer(pid, since, listeners));
    } catch (IOException e) {
      return Optional.of(new RunningServer(pid, Instant.now(), List.of()));
    }
  }

  /** "the server is running (pid 123)". */
  public String describe() {
    return "the server is running" + (pid > 0 ? " (pid " + pid + ")" : "");
  }
}
