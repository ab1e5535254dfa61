package io.rockds.server.config;

import io.rockds.config.BackendConfig;
import io.rockds.config.GlobalConfig;
import io.rockds.config.IndexConfig;
import io.rockds.config.ServerConfig;
import io.rockds.server.logging.ServerLogs;
import io.rockds.server.security.RootUsers;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The configuration the running server uses, and what changes to it live: global limits (read by
 * every operation through {@link #global}), root DNs, log publishers and index settings (reported
 * to the {@link IndexRebuildHook}). Listener and storage options are read once at start.
 */
public final class LiveConfiguration {
  private final RootUsers rootUsers;
  private final ServerLogs logs;
  private final IndexRebuildHook indexHook;
  private volatile ServerConfig current;

  public LiveConfiguration(ServerConfig initial, RootUsers rootUsers, ServerLogs logs, IndexRebuildHook indexHook) {
    this.current = initial;
    this.rootUsers = rootUsers;
    this.logs = logs;
    this.indexHook = indexHook;
    logs.apply(initial.logPublishers());
  }

  public ServerConfig current() {
    return current;
  }

  public GlobalConfig global() {
    return current.global();
  }

  /** Applies an accepted, saved configuration. */
  synchronized void apply(ServerConfig next) {
    ServerConfig previous = current;
    current = next;
    rootUsers.replace(next.rootDns());
    logs.apply(next.logPublishers());
    Map<String, BackendConfig> before = previous.backends().stream()
        .collect(Collectors.toMap(BackendConfig::id, Function.identity()));
    for (BackendConfig backend : next.backends()) {
      BackendConfig old = before.get(backend.id());
      if (old != null) {
        reportIndexChanges(old, backend);
      }
    }
  }

  private void reportIndexChanges(BackendConfig old, BackendConfig next) {
    if (old.indexEntryLimit() != next.indexEntryLimit()) {
      indexHook.indexNeedsRebuild(next.id(), null, "index-entry-limit changed from " + old.indexEntryLimit() + " to "
          + next.indexEntryLimit());
    }
    Map<String, IndexConfig> before = old.indexes().stream()
        .collect(Collectors.toMap(i -> i.attribute().toLowerCase(java.util.Locale.ROOT), Function.identity()));
    for (IndexConfig index : next.indexes()) {
      IndexConfig was = before.get(index.attribute().toLowerCase(java.util.Locale.ROOT));
      if (was == null) {
        indexHook.indexNeedsRebuild(next.id(), index.attribute(), "new index " + index.types());
      } else if (!was.types().equals(index.types()) || !Objects.equals(was.entryLimit(), index.entryLimit())
          || was.substringLength() != index.substringLength()) {
        indexHook.indexNeedsRebuild(next.id(), index.attribute(), "index settings changed");
      }
    }
  }
}
