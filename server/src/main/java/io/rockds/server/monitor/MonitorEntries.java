package io.rockds.server.monitor;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.util.StaticUtils;
import io.rockds.replication.GroupStatus;
import io.rockds.replication.MemberStatus;
import io.rockds.server.Identity;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.SearchResults;
import io.rockds.server.replication.Writability;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.StorageHealth;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * The {@code cn=monitor} subtree, built on each read from {@link ServerMetrics} and the backends,
 * with OpenDJ-like entry names and the figures the IBM tuning guide lists (connections, operations
 * initiated and completed, entries sent, searches requested and completed, cache hits and misses):
 *
 * <pre>
 *   cn=monitor                          server: version, start/current time, uptime, connections, ops
 *   cn=Operations,cn=monitor            initiated / completed per operation type
 *   cn=&lt;id&gt; Backend,cn=monitor         entries, disk size, entry cache, index trust (need-reindex),
 *                                       indexes a rebuild would tighten (ds-index-rebuild-would-tighten)
 *   cn=Work Queue,cn=monitor            queued requests, busy workers
 *   cn=JVM Memory Usage,cn=monitor      heap and non-heap
 * </pre>
 *
 * Reading it needs a root DN or the {@code monitor-read} privilege; it takes no update.
 */
public final class MonitorEntries implements DirectoryBackend {
  public static final DN MONITOR = parse("cn=monitor");
  private static final AccessRule READ = AccessRule.privileged(MonitorEntries::requireRead);

  private final ServerMetrics metrics;
  private final Supplier<List<Backend>> backends;
  private final ThreadPoolExecutor workers;
  private final String version;
  private final Supplier<GroupStatus> replication;

  /**
   * @param replication the replication group as this server sees it; supplies null when the server
   *     runs alone
   */
  public MonitorEntries(
      ServerMetrics metrics,
      Supplier<List<Backend>> backends,
      ThreadPoolExecutor workers,
      String version,
      Supplier<GroupStatus> replication) {
    this.metrics = metrics;
    this.backends = backends;
    this.workers = workers;
    this.version = version;
    this.replication = replication;
  }

  private static DN parse(String dn) {
    try {
      return new DN(dn);
    } catch (LDAPException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Override
  public List<DN> baseDns() {
    return List.of(MONITOR);
  }

  @Override
  public AccessRule readAccess() {
    return READ;
  }

  @Override
  public Entry get(DN dn) throws LDAPException {
    for (Entry entry : entries()) {
      if (entry.getParsedDN().equals(dn)) {
        return entry;
      }
    }
    return null;
  }

  /** The entries in scope; a base below cn=monitor that does not exist has none. */
  @Override
  public void search(DN base, SearchScope scope, SearchResults results) throws LDAPException {
    for (Entry entry : entries()) {
      if (entry.getParsedDN().matchesBaseAndScope(base, scope) && !results.inScope(entry)) {
        return;
      }
    }
  }

  private static void requireRead(Identity identity) throws LDAPException {
    if (!identity.root() && !identity.has("monitor-read")) {
      throw new LDAPException(
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
          "Reading cn=monitor needs the monitor-read privilege");
    }
  }

  /** Every monitor entry, parents first. */
  public List<Entry> entries() throws LDAPException {
    List<Entry> entries = new ArrayList<>();
    entries.add(server());
    entries.add(operations());
    for (Backend backend : backends.get()) {
      entries.add(backend(backend));
    }
    entries.add(workQueue());
    entries.add(memory());
    GroupStatus group = replication.get();
    if (group != null) {
      entries.add(replication(group));
    }
    return entries;
  }

  /**
   * {@code cn=Replication,cn=monitor}: this server's role, term and applied index, and per member
   * its last replicated index and lag behind the commit index (the leader knows every member's; the
   * others only their own).
   */
  private static Entry replication(GroupStatus group) {
    Entry e = monitorEntry(child("Replication"), "Replication");
    e.addAttribute("ds-replication-server-id", group.serverId());
    e.addAttribute("ds-replication-role", group.role());
    e.addAttribute("ds-replication-leader", group.hasLeader() ? group.leaderId() : "none");
    e.addAttribute("ds-replication-writable", String.valueOf(group.writable()));
    e.addAttribute("ds-replication-term", Long.toString(group.term()));
    e.addAttribute("ds-replication-commit-index", Long.toString(group.commitIndex()));
    e.addAttribute("ds-replication-applied-index", Long.toString(group.appliedIndex()));
    String refusal = Writability.refusal(group);
    if (refusal != null) {
      e.addAttribute("ds-replication-unwritable-reason", refusal);
    }
    e.addAttribute("ds-replication-log-start-index", Long.toString(group.logStartIndex()));
    // Their ratio: how many writes shared a log entry (group commit).
    e.addAttribute("ds-replication-entries-applied", Long.toString(group.entriesApplied()));
    e.addAttribute("ds-replication-records-applied", Long.toString(group.recordsApplied()));
    if (!group.applying()) {
      e.addAttribute("ds-replication-apply-failure", group.applyFailure());
    }
    for (MemberStatus m : group.members()) {
      String lag =
          m.matchIndex() < 0 ? "unknown" : Long.toString(group.commitIndex() - m.matchIndex());
      e.addAttribute(
          "ds-replication-member",
          m.id() + " role=" + m.role() + " index=" + m.matchIndex() + " lag=" + lag);
    }
    return e;
  }

  private Entry server() {
    long now = System.currentTimeMillis();
    long total = 0;
    long done = 0;
    for (AtomicLong n : metrics.initiatedByType().values()) {
      total += n.get();
    }
    for (AtomicLong n : metrics.completedByType().values()) {
      done += n.get();
    }
    Duration up = Duration.ofMillis(now - metrics.startMillis());
    Entry e = monitorEntry(MONITOR, "monitor");
    e.addAttribute("vendorName", "RockDS");
    e.addAttribute("vendorVersion", version);
    e.addAttribute("startTime", StaticUtils.encodeGeneralizedTime(new Date(metrics.startMillis())));
    e.addAttribute("currentTime", StaticUtils.encodeGeneralizedTime(new Date(now)));
    e.addAttribute(
        "upTime",
        String.format(
            "%d days %d hours %d minutes %d seconds",
            up.toDays(), up.toHoursPart(), up.toMinutesPart(), up.toSecondsPart()));
    e.addAttribute("upTimeSeconds", Long.toString(up.toSeconds()));
    e.addAttribute("currentConnections", Long.toString(metrics.activeConnections()));
    e.addAttribute("totalConnections", Long.toString(metrics.totalConnections()));
    e.addAttribute("maxConnections", Long.toString(metrics.maxConnections()));
    e.addAttribute("opsInitiated", Long.toString(total));
    e.addAttribute("opsCompleted", Long.toString(done));
    e.addAttribute("entriesSent", Long.toString(metrics.entriesReturned()));
    e.addAttribute("searchesRequested", Long.toString(metrics.initiated("search")));
    e.addAttribute("searchesCompleted", Long.toString(metrics.completed("search")));
    e.addAttribute("unindexedSearches", Long.toString(metrics.searches(false)));
    e.addAttribute("currentPersistentSearches", Integer.toString(metrics.persistentSearches()));
    e.addAttribute(
        "overflowedPersistentSearches", Long.toString(metrics.persistentSearchesOverflowed()));
    return e;
  }

  private Entry operations() {
    Entry e = monitorEntry(child("Operations"), "Operations");
    Map<String, AtomicLong> initiated = new TreeMap<>(metrics.initiatedByType());
    for (Map.Entry<String, AtomicLong> op : initiated.entrySet()) {
      e.addAttribute(op.getKey() + "OpsInitiated", Long.toString(op.getValue().get()));
      e.addAttribute(op.getKey() + "OpsCompleted", Long.toString(metrics.completed(op.getKey())));
      e.addAttribute(
          op.getKey() + "OpsHandedToWorker", Long.toString(metrics.handedToWorker(op.getKey())));
    }
    return e;
  }

  private static String ratio(Statistics stats, TickerType hits, TickerType misses) {
    return ratio(stats.getTickerCount(hits), stats.getTickerCount(misses));
  }

  /** Hits over lookups with three decimals, 0 before any lookup. */
  private static String ratio(long hits, long misses) {
    return String.format(
        java.util.Locale.ROOT, "%.3f", hits + misses == 0 ? 0.0 : hits / (double) (hits + misses));
  }

  private Entry backend(Backend backend) throws LDAPException {
    Entry e = monitorEntry(child(backend.id() + " Backend"), backend.id() + " Backend");
    e.addAttribute("ds-backend-id", backend.id());
    for (DN base : backend.baseDns()) {
      e.addAttribute("ds-backend-base-dn", base.toString());
    }
    StorageHealth.Problem problem = backend.health().problem();
    e.addAttribute("ds-backend-writable", Boolean.toString(problem == null));
    if (problem != null) {
      e.addAttribute("ds-backend-degraded-reason", problem.message());
      e.addAttribute(
          "ds-backend-degraded-since",
          StaticUtils.encodeGeneralizedTime(Date.from(problem.since())));
    }
    e.addAttribute("ds-backend-entry-count", Long.toString(backend.entryCount()));
    e.addAttribute(
        "ds-backend-db-size", Long.toString(backend.longProperty("rocksdb.total-sst-files-size")));
    e.addAttribute("ds-backend-block-cache-usage", Long.toString(backend.blockCacheUsage()));
    e.addAttribute("ds-backend-block-cache-size", Long.toString(backend.blockCacheCapacity()));
    Statistics stats = backend.statistics();
    e.addAttribute(
        "ds-backend-block-cache-hit-ratio",
        ratio(stats, TickerType.BLOCK_CACHE_HIT, TickerType.BLOCK_CACHE_MISS));
    e.addAttribute(
        "ds-backend-block-cache-data-hit-ratio",
        ratio(stats, TickerType.BLOCK_CACHE_DATA_HIT, TickerType.BLOCK_CACHE_DATA_MISS));
    e.addAttribute(
        "ds-backend-block-cache-index-hit-ratio",
        ratio(stats, TickerType.BLOCK_CACHE_INDEX_HIT, TickerType.BLOCK_CACHE_INDEX_MISS));
    e.addAttribute(
        "ds-backend-block-cache-filter-hit-ratio",
        ratio(stats, TickerType.BLOCK_CACHE_FILTER_HIT, TickerType.BLOCK_CACHE_FILTER_MISS));
    e.addAttribute("ds-backend-memtable-size", Long.toString(backend.memtableBound()));
    e.addAttribute("ds-backend-memtable-usage", Long.toString(backend.memtableUsage()));
    backend
        .preload()
        .ifPresent(
            preload -> {
              var result = preload.result().getNow(null);
              e.addAttribute(
                  "ds-backend-preload-state",
                  result == null ? "running" : result.outcome().label());
              e.addAttribute("ds-backend-preload-records", Long.toString(preload.keysRead()));
            });
    e.addAttribute("entryCacheEntries", Long.toString(backend.entryCacheSize()));
    e.addAttribute("entryCacheBytes", Long.toString(backend.entryCacheBytes()));
    e.addAttribute("entryCacheMaxBytes", Long.toString(backend.settings().entryCacheBytes()));
    if (backend.entryCacheStats() != null) {
      e.addAttribute("entryCacheHits", Long.toString(backend.entryCacheStats().hitCount()));
      e.addAttribute("entryCacheMisses", Long.toString(backend.entryCacheStats().missCount()));
      e.addAttribute(
          "entryCacheEvictions", Long.toString(backend.entryCacheStats().evictionCount()));
      e.addAttribute(
          "entryCacheHitRatio",
          ratio(backend.entryCacheStats().hitCount(), backend.entryCacheStats().missCount()));
    }
    List<String> untrusted = new ArrayList<>();
    List<String> tighten = new ArrayList<>();
    for (EntryContainer container : backend.containers()) {
      for (AttributeIndex index : container.indexes()) {
        if (!index.isTrusted()) {
          untrusted.add(index.rawName());
        } else if (index.rebuildWouldTighten()) {
          tighten.add(index.rawName());
        }
      }
    }
    if (!untrusted.isEmpty()) {
      e.addAttribute("need-reindex", untrusted);
    }
    if (!tighten.isEmpty()) {
      // Trusted and correct, built with another index-entry-limit than now: a rebuild tightens it.
      e.addAttribute("ds-index-rebuild-would-tighten", tighten);
    }
    return e;
  }

  private Entry workQueue() {
    Entry e = monitorEntry(child("Work Queue"), "Work Queue");
    e.addAttribute("requestsInQueue", Integer.toString(workers.getQueue().size()));
    e.addAttribute("activeWorkerThreads", Integer.toString(workers.getActiveCount()));
    e.addAttribute("workerThreads", Integer.toString(workers.getMaximumPoolSize()));
    e.addAttribute("requestsCompleted", Long.toString(workers.getCompletedTaskCount()));
    return e;
  }

  private Entry memory() {
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    MemoryUsage nonHeap = ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage();
    Entry e = monitorEntry(child("JVM Memory Usage"), "JVM Memory Usage");
    e.addAttribute("heapUsed", Long.toString(heap.getUsed()));
    e.addAttribute("heapCommitted", Long.toString(heap.getCommitted()));
    e.addAttribute("heapMax", Long.toString(heap.getMax()));
    e.addAttribute("nonHeapUsed", Long.toString(nonHeap.getUsed()));
    return e;
  }

  private static DN child(String cn) {
    return new DN(new com.unboundid.ldap.sdk.RDN("cn", cn), MONITOR);
  }

  private static Entry monitorEntry(DN dn, String cn) {
    return new Entry(
        dn,
        new Attribute("objectClass", "top", "ds-monitor-entry", "extensibleObject"),
        new Attribute("cn", cn));
  }
}
