package io.rockds.server.config;

import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.BackendConfig;
import io.rockds.config.IndexConfig;
import io.rockds.config.VlvIndexConfig;
import io.rockds.server.Backends;
import io.rockds.server.logging.ErrorSeverity;
import io.rockds.server.logging.ServerLogs;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexEntryLimits;
import io.rockds.storage.VlvIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Applies index configuration changes to the running backends' storage: a new index (or new index
 * type) gets its trees at once ({@link Backend#addIndex}); in a backend holding entries those new
 * trees are untrusted (searches ignore them, writes maintain them) until an online or offline
 * rebuild. A changed index-entry-limit (of the index or of the backend) applies at once to reads
 * and writes ({@link IndexEntryLimits}); the indexes stay trusted and the error log says that a
 * rebuild would tighten them. Removing an index or an index type takes effect at the next start.
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
    IndexEntryLimits limits = backend.entryLimits();
    limits.setBackendLimit(next.indexEntryLimit());
    for (IndexConfig index : next.indexes()) {
      limits.setOwnLimit(index.attribute(), index.entryLimit());
    }
    Map<String, IndexConfig> before =
        old.indexes().stream()
            .collect(Collectors.toMap(i -> key(i.attribute()), Function.identity()));
    for (IndexConfig index : next.indexes()) {
      IndexConfig was = before.remove(key(index.attribute()));
      try {
        boolean limitChanged = was != null && limit(old, was) != limit(next, index);
        apply(backend, next, was, index, limitChanged);
      } catch (LDAPException | RuntimeException e) {
        logIndex(
            ErrorSeverity.ERROR,
            "index",
            next.id(),
            index.attribute(),
            ": the new settings could not be applied to the running backend ("
                + message(e)
                + "); they take effect at the next start");
      }
    }
    applyVlv(backend, old, next);
    for (IndexConfig removed : before.values()) {
      logIndex(
          ErrorSeverity.WARNING,
          "index",
          next.id(),
          removed.attribute(),
          " was removed from the configuration: the server keeps maintaining it until it restarts");
    }
  }

  /**
   * VLV indexes: a new one is created at once (untrusted until rebuilt in a backend holding
   * entries), a deleted one dropped, a changed one dropped and created again.
   */
  private void applyVlv(Backend backend, BackendConfig old, BackendConfig next) {
    Map<String, VlvIndexConfig> before =
        old.vlvIndexes().stream()
            .collect(Collectors.toMap(v -> key(v.name()), Function.identity()));
    for (VlvIndexConfig vlv : next.vlvIndexes()) {
      VlvIndexConfig was = before.remove(key(vlv.name()));
      if (vlv.equals(was)) {
        continue;
      }
      try {
        if (was != null) {
          backend.removeVlvIndex(was.name());
        }
        VlvIndex index = backend.addVlvIndex(Backends.vlvSpec(vlv));
        if (index != null && !index.isTrusted()) {
          logIndex(
              ErrorSeverity.WARNING,
              "VLV index",
              next.id(),
              vlv.name(),
              " is untrusted until rebuilt (VLV searches sort in memory):"
                  + " rebuild-index --index "
                  + index.name());
        }
      } catch (LDAPException | RuntimeException e) {
        logIndex(
            ErrorSeverity.ERROR,
            "VLV index",
            next.id(),
            vlv.name(),
            " could not be applied: " + message(e));
      }
    }
    for (VlvIndexConfig removed : before.values()) {
      try {
        backend.removeVlvIndex(removed.name());
      } catch (LDAPException e) {
        logIndex(
            ErrorSeverity.ERROR,
            "VLV index",
            next.id(),
            removed.name(),
            " could not be removed: " + message(e));
      }
    }
  }

  /** Logs about one index of a backend: {@code <kind> <backend>/<name><what>}. */
  private void logIndex(
      ErrorSeverity severity, String kind, String backendId, String name, String what) {
    logs.error(severity, "BACKEND", kind + " " + backendId + "/" + name + what);
  }

  private void apply(
      Backend backend, BackendConfig next, IndexConfig was, IndexConfig index, boolean limitChanged)
      throws LDAPException {
    List<String> untrusted = new ArrayList<>();
    if (was == null
        || !was.types().containsAll(index.types())
        || was.substringLength() != index.substringLength()) {
      for (AttributeIndex created : backend.addIndex(Backends.indexSpec(index))) {
        if (!created.isTrusted()) {
          untrusted.add(created.name());
        }
      }
    }
    if (was != null
        && !was.types().equals(index.types())
        && !index.types().containsAll(was.types())) {
      logIndex(
          ErrorSeverity.WARNING,
          "index",
          next.id(),
          index.attribute(),
          ": removed index types are maintained until the server restarts");
    }
    List<String> loose = new ArrayList<>();
    for (EntryContainer container : backend.containers()) {
      for (AttributeIndex tree : container.indexes()) {
        if (limitChanged
            && tree.attribute().equalsIgnoreCase(index.attribute())
            && tree.isTrusted()
            && tree.rebuildWouldTighten()) {
          loose.add(tree.name());
        }
      }
    }
    for (String name : untrusted.stream().distinct().toList()) {
      logIndex(
          ErrorSeverity.WARNING,
          "index",
          next.id(),
          name,
          " is untrusted until"
              + " rebuilt (searches do not use it): rebuild-index --index "
              + name);
    }
    for (String name : loose.stream().distinct().toList()) {
      logIndex(
          ErrorSeverity.INFO,
          "index",
          next.id(),
          name,
          " now uses index-entry-limit "
              + backend.entryLimits().of(index.attribute())
              + " for reads and writes; it keeps answering correctly,"
              + " and rebuild-index --index "
              + name
              + " would tighten it");
    }
  }

  private static int limit(BackendConfig backend, IndexConfig index) {
    return index.entryLimit() != null ? index.entryLimit() : backend.indexEntryLimit();
  }

  private static String key(String attribute) {
    return attribute.toLowerCase(Locale.ROOT);
  }

  private static String message(Exception e) {
    return e instanceof LDAPException l ? l.getExceptionMessage() : String.valueOf(e);
  }
}
