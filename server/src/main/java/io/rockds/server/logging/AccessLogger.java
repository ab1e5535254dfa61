package io.rockds.server.logging;

/** Receives every access record; implemented by {@link ServerLogs}. Must not block for long. */
@FunctionalInterface
public interface AccessLogger {
  void log(AccessRecord record);
}
