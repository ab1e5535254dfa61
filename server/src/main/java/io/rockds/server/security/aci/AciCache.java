package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ACIs in force: the global ones (replaced when the configuration changes) and those held by
 * entries, loaded on first use and kept until a write touches an {@code aci} value. A load that
 * raced with an invalidation is used once but not kept, so a completed write is always seen by the
 * next operation.
 */
public final class AciCache {
  /**
   * Reads every entry ACI of every backend, by holder DN (an index read of {@code aci} presence).
   */
  @FunctionalInterface
  public interface Loader {
    Map<DN, List<Aci>> load() throws LDAPException;
  }

  private volatile List<Aci> global;
  private final Loader loader;
  private final AtomicLong generation = new AtomicLong();
  private volatile Map<DN, List<Aci>> byHolder;

  public AciCache(List<Aci> global, Loader loader) {
    this.global = List.copyOf(global);
    this.loader = loader;
  }

  /**
   * Takes changed global ACIs into use (a write of {@code cn=config}); the next operation sees
   * them.
   */
  public void replaceGlobal(List<Aci> acis) {
    global = List.copyOf(acis);
  }

  /** The ACIs that may apply to {@code dn}: global ones, then those of its ancestors and itself. */
  public List<Aci> candidates(DN dn) throws LDAPException {
    List<Aci> globalNow = global;
    Map<DN, List<Aci>> holders = holders();
    if (holders.isEmpty()) {
      return globalNow;
    }
    List<Aci> result = new ArrayList<>(globalNow);
    for (DN d = dn; d != null; d = d.getParent()) {
      List<Aci> acis = holders.get(d);
      if (acis != null) {
        result.addAll(acis);
      }
      if (d.isNullDN()) {
        break;
      }
    }
    return result;
  }

  /** True if an entry at or below {@code dn} holds ACIs. */
  public boolean holdsAcis(DN dn) throws LDAPException {
    for (DN holder : holders().keySet()) {
      if (holder.isDescendantOf(dn, true)) {
        return true;
      }
    }
    return false;
  }

  /** Forgets the entry ACIs; the next operation reloads them. */
  public synchronized void invalidate() {
    generation.incrementAndGet();
    byHolder = null;
  }

  private Map<DN, List<Aci>> holders() throws LDAPException {
    Map<DN, List<Aci>> current = byHolder;
    if (current != null) {
      return current;
    }
    long before = generation.get();
    Map<DN, List<Aci>> loaded = Map.copyOf(loader.load());
    synchronized (this) {
      if (generation.get() == before) {
        byHolder = loaded;
      }
    }
    return loaded;
  }
}
