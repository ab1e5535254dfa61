package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.BackendConfig;
import io.rockds.config.IndexConfig;
import io.rockds.config.VlvIndexConfig;
import io.rockds.layout.Instance;
import io.rockds.storage.Backend;
import io.rockds.storage.BackendSettings;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexSpec;
import io.rockds.storage.IndexType;
import io.rockds.storage.MemoryBudget;
import io.rockds.storage.VlvSpec;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The open backends of the server, and which one holds a DN. */
public final class Backends implements AutoCloseable {
  private final Map<String, Backend> byId = new LinkedHashMap<>();

  /** Opens every enabled backend with the default memory budget (half the machine's). */
  public static Backends open(List<BackendConfig> configs, Instance instance, Schema schema)
      throws LDAPException {
    return open(configs, instance, schema, MemoryBudget.ofThisProcess(0));
  }

  /**
   * Opens every enabled backend to serve, each with its share of the memory budget (see {@link
   * MemoryBudget}) and memtables sized to its data; on failure the ones already open are closed.
   */
  public static Backends open(
      List<BackendConfig> configs, Instance instance, Schema schema, MemoryBudget budget)
      throws LDAPException {
    Backends backends = new Backends();
    int enabled = (int) configs.stream().filter(BackendConfig::enabled).count();
    try {
      for (BackendConfig config : configs) {
        if (config.enabled()) {
          Backend backend =
              Backend.openServing(settings(config, instance, budget, enabled), schema);
          backends.byId.put(config.id(), backend);
          openVlvIndexes(backend, config);
        }
      }
    } catch (LDAPException | RuntimeException e) {
      backends.close();
      throw e;
    }
    return backends;
  }

  /**
   * Opens the configured VLV indexes of a backend just opened (a read-only view skips those not
   * created yet).
   */
  public static void openVlvIndexes(Backend backend, BackendConfig config) throws LDAPException {
    for (VlvIndexConfig vlv : config.vlvIndexes()) {
      backend.addVlvIndex(vlvSpec(vlv));
    }
  }

  /** The settings of a backend alone under the default memory budget (half the machine's). */
  public static BackendSettings settings(BackendConfig config, Instance instance) {
    return settings(config, instance, MemoryBudget.ofThisProcess(0), 1);
  }

  /**
   * The storage view of a backend's configuration: the one place config becomes storage settings.
   * Caches left at -1 get the backend's share (one of {@code backends}) of the budget.
   */
  public static BackendSettings settings(
      BackendConfig config, Instance instance, MemoryBudget budget, int backends) {
    List<IndexSpec> indexes = new ArrayList<>();
    for (IndexConfig index : config.indexes()) {
      indexes.add(indexSpec(index));
    }
    long entryCache =
        config.entryCacheBytes() >= 0
            ? config.entryCacheBytes()
            : MemoryBudget.share(budget.entryCacheBytes(), backends);
    long blockCache =
        Math.max(
            1L << 20,
            config.blockCacheBytes() >= 0
                ? config.blockCacheBytes()
                : MemoryBudget.share(budget.blockCacheBytes(), backends));
    return new BackendSettings(
        config.id(),
        config.baseDns(),
        instance.resolve(config.dbDirectory()),
        config.indexEntryLimit(),
        indexes,
        config.syncWrites(),
        entryCache,
        // The budget's share keeps large entries only: at 100k users, caching every entry cost
        // more CPU (heap churn on misses) and twice the memory of decoding them again.
        config.entryCacheBytes() >= 0,
        blockCache,
        config.compression(),
        MemoryBudget.share(budget.memtableBytes(), backends));
  }

  /** The storage view of one index's configuration. */
  public static IndexSpec indexSpec(IndexConfig index) {
    EnumSet<IndexType> types = EnumSet.noneOf(IndexType.class);
    for (String t : index.types()) {
      types.add(IndexType.fromConfigName(t));
    }
    return new IndexSpec(index.attribute(), types, index.entryLimit(), index.substringLength());
  }

  /** The storage view of one VLV index's configuration; invalidAttributeSyntax if unreadable. */
  public static VlvSpec vlvSpec(VlvIndexConfig vlv) throws LDAPException {
    try {
      return new VlvSpec(
          vlv.name(),
          new DN(vlv.baseDn()),
          switch (vlv.scope()) {
            case "base-object" -> SearchScope.BASE;
            case "single-level" -> SearchScope.ONE;
            case "subordinate-subtree" -> SearchScope.SUBORDINATE_SUBTREE;
            default -> SearchScope.SUB;
          },
          Filter.create(vlv.filter()),
          VlvSpec.parseSortOrder(vlv.sortOrder()));
    } catch (LDAPException | IllegalArgumentException e) {
      throw new LDAPException(
          ResultCode.INVALID_ATTRIBUTE_SYNTAX,
          "VLV index " + vlv.name() + ": " + e.getMessage(),
          e);
    }
  }

  public Backend get(String id) {
    return byId.get(id);
  }

  public List<Backend> all() {
    return List.copyOf(byId.values());
  }

  /**
   * The entry container holding {@code dn}, the deepest base DN that is an ancestor; null if none.
   */
  public EntryContainer containerFor(DN dn) {
    EntryContainer best = null;
    for (Backend backend : byId.values()) {
      EntryContainer c = backend.containerFor(dn);
      if (c != null
          && (best == null || c.baseDn().getRDNs().length > best.baseDn().getRDNs().length)) {
        best = c;
      }
    }
    return best;
  }

  /** Every base DN, for the root DSE's namingContexts. */
  public List<DN> baseDns() {
    List<DN> dns = new ArrayList<>();
    for (Backend b : byId.values()) {
      dns.addAll(b.baseDns());
    }
    return dns;
  }

  @Override
  public void close() {
    for (Backend b : byId.values()) {
      b.close();
    }
    byId.clear();
  }
}
