package io.rockds.server.backend;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place committed updates of stored backends are announced: whatever applies an update to
 * storage (an LDAP write, a replicated change) calls {@link #committed} after the storage write
 * returned. A failing listener is logged and skipped: the write has committed and stays successful.
 */
public final class ChangeNotifier {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeNotifier.class);

  private final List<ChangeListener> listeners = new CopyOnWriteArrayList<>();

  public void register(ChangeListener listener) {
    listeners.add(listener);
  }

  public void unregister(ChangeListener listener) {
    listeners.remove(listener);
  }

  /** Whether some listener reads the whole entry of the next change ({@link ChangeListener}). */
  public boolean readsWholeEntries() {
    for (ChangeListener listener : listeners) {
      if (listener.readsWholeEntries()) {
        return true;
      }
    }
    return false;
  }

  /** Whether some listener hears changelog entries ({@link ChangeListener}). */
  public boolean hearsChangelogEntries() {
    for (ChangeListener listener : listeners) {
      if (listener.hearsChangelogEntries()) {
        return true;
      }
    }
    return false;
  }

  public void committed(Change change) {
    for (ChangeListener listener : listeners) {
      try {
        listener.committed(change);
      } catch (RuntimeException e) {
        LOG.error("change listener {} failed on {} {}", listener, change.type(), change.dn(), e);
      }
    }
  }
}
