package io.rockds.server.backend;

/**
 * Hears each update of a stored backend once it has committed (durable, visible to reads), never
 * before and never for a write that failed. Runs on the writer's thread: it must return at once,
 * without blocking or doing I/O (hand the change to a queue).
 */
@FunctionalInterface
public interface ChangeListener {
  void committed(Change change);

  /**
   * Whether this listener reads the whole entry of the next change: a modify may otherwise give it
   * the entry with only the values it changed of the attributes stored apart (member).
   */
  default boolean readsWholeEntries() {
    return false;
  }

  /**
   * Whether this listener hears the adds of {@code cn=changelog} entries now: a writer builds the
   * changelog entry of its change only when someone does.
   */
  default boolean hearsChangelogEntries() {
    return false;
  }
}
