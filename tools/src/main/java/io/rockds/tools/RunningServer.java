package io.rockds.tools;

import io.rockds.server.Instance;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The server of an instance as seen from outside its process: it runs while its started marker
 * ({@code logs/server.started}, written once every listener is bound, removed on shutdown) is
 * present and, when a pid file exists, that process is alive.
 *
 * @param pid the server process, or -1 for a server embedded in another program (tests)
 * @param since when the listeners were bound
 * @param listeners the bound listeners as URLs, e.g. {@code ldap://127.0.0.1:1389}
 */
public record RunningServer(long pid, Instant since, List<String> listeners) {

  /** The running server of {@code instance}, or empty when it is stopped (or crashed). */
  public static Optional<RunningServer> of(Instance instance) {
    if (!Files.exists(instance.startedFile())) {
      return Optional.empty();
    }
    try {
      long pid = -1;
      if (Files.exists(instance.pidFile())) {
        pid = Long.parseLong(Files.readString(instance.pidFile(), StandardCharsets.UTF_8).strip());
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
          return Optional.empty(); // a stale marker left by a crash
        }
      }
      Instant since = Files.getLastModifiedTime(instance.startedFile()).toInstant();
      List<String> listeners = Files.readAllLines(instance.startedFile(), StandardCharsets.UTF_8).stream()
          .map(String::strip).filter(l -> !l.isEmpty()).toList();
      return Optional.of(new RunningServer(pid, since, listeners));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty(); // the server is stopping or starting: treat as not running
    }
  }

  /** "the server is running (pid 123)". */
  public String describe() {
    return "the server is running" + (pid > 0 ? " (pid " + pid + ")" : "");
  }
}
