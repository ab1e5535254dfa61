package io.rockds.layout;

import java.nio.file.Path;

/**
 * The files of one instance directory.
 *
 * <pre>
 *   config/config.ldif   config/archived-configs/   config/keystore.p12
 *   db/&lt;backend&gt;/        logs/access  logs/errors  logs/server.pid  logs/server.out  logs/server.stopped
 *   locks/server.lock   (held by the running server, see {@link ServerLock})
 * </pre>
 */
public record Instance(Path root) {

  public Instance {
    root = root.toAbsolutePath().normalize();
  }

  public Path configFile() {
    return root.resolve("config").resolve("config.ldif");
  }

  public Path schemaDirectory() {
    return root.resolve("config").resolve("schema");
  }

  public Path logs() {
    return root.resolve("logs");
  }

  public Path pidFile() {
    return logs().resolve("server.pid");
  }

  /**
   * Locked by the running server: whether a server runs is decided by this lock, never by the pid
   * file.
   */
  public Path lockFile() {
    return root.resolve("locks").resolve("server.lock");
  }

  /** Written once every listener is bound; start-ds waits for it. */
  public Path startedFile() {
    return logs().resolve("server.started");
  }

  /**
   * Written as the server's shutdown ends: {@code DirectoryServer.STOPPED_CLEANLY}, or why not.
   * Absent after a stop means the process ended some other way (a crash, kill -9); stop-ds says so.
   */
  public Path stoppedFile() {
    return logs().resolve("server.stopped");
  }

  /** A path from the configuration, relative to the instance unless absolute. */
  public Path resolve(String configured) {
    Path p = Path.of(configured);
    return p.isAbsolute() ? p : root.resolve(p);
  }
}
