package io.rockds.server.config;

import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.BackendConfig;
import io.rockds.config.IndexConfig;
import io.rockds.server.Backends;
import io.rockds.server.logging.ErrorSeverity;
import io.rockds.server.logging.ServerLogs;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Applies index configuration changes to the running backends' storage: a new index (or new index
 * type) gets its trees at once ({@link Backend#addIndex}), a changed index-entry-limit (of the
 * index or, for the indexes without their own, of the backend) is set on the trees
 * ({@link EntryContainer#setIndexEntryLimit}). In a backend holding entries those indexes are
 * untrusted (searches ignore them, writes maintain them) until an online or offline rebuild; the
 * error log names each one. Removing an index or an index type takes effect at the next start.
 */
final class LiveIndexes {
  private final Backends backends;
  private final ServerLogs logs;

  LiveIndexes(Backends backends, ServerLogs logs) {
    this.backends = backends;
    this.logs = logs;
  }

  /** Brings the storage of backend {@code next} in line with its index configuration. */
  void apply(BackendConfig old, BackendConfig next) {
    Backend backend = backends.get(next.id());
    if (backend == null) {
      return;
    }
    Map<String, IndexConfig> before = old.indexes().stream()
        .collect(Collectors.toMap(i -> key(i.attribute()), Function.identity()));
    for (IndexConfig index : next.indexes()) {
      IndexConfig was = before.remove(key(index.attribute()));
      try {
        apply(backend, next, was, index);
      } catch (LDAPException | RuntimeException e) {
        logs.error(ErrorSeverity.ERROR, "BACKEND", "index " + next.id() + "/" + index.attribute()
            + ": the new settings could not be applied to the running backend (" + message(e)
            + "); they take effect at the next start");
      }
    }
    for (IndexConfig removed : before.values()) {
      logs.error(ErrorSeverity.WARNING, "BACKEND", "index " + next.id() + "/" + removed.attribute()
          + " was removed from the configuration: the server keeps maintaining it until it restarts");
    }
  }

  private void apply(Backend backend, BackendConfig next, IndexConfig was, IndexConfig index) throws LDAPException {
    IndexSpec configured = Backends.indexSpec(index);
    int limit = index.entryLimit() != null ? index.entryLimit() : next.indexEntryLimit();
    List<String> untrusted = new ArrayList<>();
    if (was == null || !was.types().containsAll(index.types()) || was.substringLength() != index.substringLength()) {
      IndexSpec spec = new IndexSpec(configured.attribute(), configured.types(), limit, configured.substringLength());
      for (AttributeIndex created : backend.addIndex(spec)) {
        if (!created.isTrusted()) {
          untrusted.add(created.name());
        }
      }
    }
    if (was != null && !was.types().equals(index.types()) && !index.types().containsAll(was.types())) {
      logs.error(ErrorSeverity.WARNING, "BACKEND", "index " + next.id() + "/" + index.attribute()
          + ": removed index types are maintained until the server restarts");
    }
    for (EntryContainer container : backend.containers()) {
      for (AttributeIndex tree : container.indexes()) {
        if (tree.attribute().equalsIgnoreCase(index.attribute()) && tree.entryLimit().limit() != limit) {
          container.setIndexEntryLimit(tree.name(), limit);
          untrusted.add(tree.name());
        }
      }
    }
    for (String name : untrusted.stream().distinct().toList()) {
      logs.error(ErrorSeverity.WARNING, "BACKEND", "index " + next.id() + "/" + name + " is untrusted until"
          + " rebuilt (searches do not use it): rebuild-index --index " + name);
    }
  }

  private static String key(String attribute) {
    return attribute.toLowerCase(Locale.ROOT);
  }

  private static String message(Exception e) {
    return e instanceof LDAPException l ? l.getExceptionMessage() : String.valueOf(e);
  }
}
