package io.rockds.server.monitor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rockds.replication.GroupStatus;
import io.rockds.replication.MemberStatus;
import io.rockds.storage.Backend;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.rocksdb.TickerType;

/**
 * The server's meters. Names follow Prometheus conventions once rendered: the timer {@code
 * ldap.operations} tagged {@code op} and {@code result} becomes {@code
 * ldap_operations_seconds_count{op="search",result="success"}}; units are in the names ({@code
 * _bytes}, {@code _seconds}), counters end in {@code _total}, and every meter has a description
 * (the HELP line); {@code docs/monitoring.md} lists them. Labels are bounded (operation types,
 * result names, backend and handler names); never a DN or a filter.
 *
 * <p>The same counters feed {@code cn=monitor}, which is why operations initiated and completed are
 * kept here as plain per-type counts too.
 */
public final class ServerMetrics {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final boolean enabled;
  private final long startMillis = System.currentTimeMillis();

  /** By operation, then by result tag: no key is built per operation. */
  private final Map<String, Map<String, Timer>> timers = new ConcurrentHashMap<>();

  private static final Map<Integer, String> RESULT_TAGS = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> initiated = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> completed = new ConcurrentHashMap<>();

  /** Operations tried on an event loop that gave way to a worker, by type. */
  private final Map<String, Counter> handedToWorker = new ConcurrentHashMap<>();

  private final AtomicLong activeConnections = new AtomicLong();
  private final AtomicLong maxConnections = new AtomicLong();
  private volatile IntSupplier persistentSearches = () -> 0;
  private volatile LongSupplier persistentSearchesOverflowed = () -> 0;
  private final Counter acceptedConnections;
  private final Counter rejectedConnections;
  private final Counter entriesReturned;
  private final Counter indexedSearches;
  private final Counter unindexedSearches;

  /**
   * @param enabled false turns every per-operation update into a no-op (to measure the meters'
   *     cost)
   */
  public ServerMetrics(boolean enabled) {
    this.enabled = enabled;
    acceptedConnections =
        Counter.builder("ldap.connections.accepted")
            .description("Connections accepted")
            .register(registry);
    rejectedConnections =
        Counter.builder("ldap.connections.rejected")
            .description("Connections refused because a connection limit was reached")
            .register(registry);
    entriesReturned =
        Counter.builder("ldap.search.entries.returned")
            .description("Search result entries sent")
            .register(registry);
    indexedSearches =
        Counter.builder("ldap.searches")
            .tag("indexed", "true")
            .description("Searches completed, by whether an index answered them")
            .register(registry);
    unindexedSearches =
        Counter.builder("ldap.searches")
            .tag("indexed", "false")
            .description("Searches completed, by whether an index answered them")
            .register(registry);
    Gauge.builder("ldap.connections.active", activeConnections, AtomicLong::get)
        .description("Connections open now")
        .register(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** The Prometheus text exposition of every meter. */
  public String scrape() {
    return registry.scrape();
  }

  public long startMillis() {
    return startMillis;
  }

  // ------------------------------------------------------------- operations

  /**
   * {@code op} is the operation type in lower case: bind, search, add, modify, modifydn, compare,
   * delete, extended.
   */
  public void operationStarted(String op) {
    if (enabled) {
      initiated.computeIfAbsent(op, o -> new AtomicLong()).incrementAndGet();
    }
  }

  /**
   * An operation counted as started that will be started again elsewhere: tried on an event loop,
   * it gave way to a worker before it answered.
   */
  public void operationWithdrawn(String op) {
    if (enabled) {
      initiated.computeIfAbsent(op, o -> new AtomicLong()).decrementAndGet();
      handedToWorker
          .computeIfAbsent(
              op,
              o ->
                  Counter.builder("ldap.operations.handed.to.worker")
                      .description(
                          "Operations tried on an event loop that gave way to a worker, by type")
                      .tag("op", o)
                      .register(registry))
          .increment();
    }
  }

  /** How many operations of type {@code op} tried on an event loop gave way to a worker. */
  public long handedToWorker(String op) {
    Counter n = handedToWorker.get(op);
    return n == null ? 0 : (long) n.count();
  }

  public void operationCompleted(String op, String result, long nanos) {
    if (!enabled) {
      return;
    }
    completed.computeIfAbsent(op, o -> new AtomicLong()).incrementAndGet();
    timers
        .computeIfAbsent(op, o -> new ConcurrentHashMap<>())
        .computeIfAbsent(
            result,
            r ->
                Timer.builder("ldap.operations")
                    .description("LDAP operations by type and result")
                    .tags(Tags.of("op", op, "result", result))
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofNanos(50_000))
                    .maximumExpectedValue(Duration.ofSeconds(30))
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  public void searchFinished(boolean indexed, long entries) {
    if (enabled) {
      (indexed ? indexedSearches : unindexedSearches).increment();
      entriesReturned.increment(entries);
    }
  }

  /**
   * The result tag of a result code: its lower-case name with underscores, e.g. {@code
   * no_such_object}.
   */
  public static String resultTag(com.unboundid.ldap.sdk.ResultCode code) {
    return RESULT_TAGS.computeIfAbsent(
        code.intValue(),
        c -> code.getName().toLowerCase(Locale.ROOT).replace(' ', '_').replace("-", "_"));
  }

  public long initiated(String op) {
    AtomicLong n = initiated.get(op);
    return n == null ? 0 : n.get();
  }

  public long completed(String op) {
    AtomicLong n = completed.get(op);
    return n == null ? 0 : n.get();
  }

  public Map<String, AtomicLong> initiatedByType() {
    return initiated;
  }

  public Map<String, AtomicLong> completedByType() {
    return completed;
  }

  public long entriesReturned() {
    return (long) entriesReturned.count();
  }

  public long searches(boolean indexed) {
    return (long) (indexed ? indexedSearches : unindexedSearches).count();
  }

  // ------------------------------------------------------------- connections

  public void connectionOpened() {
    acceptedConnections.increment();
    long now = activeConnections.incrementAndGet();
    maxConnections.accumulateAndGet(now, Math::max);
  }

  public void connectionClosed() {
    activeConnections.decrementAndGet();
  }

  public void connectionRejected() {
    rejectedConnections.increment();
  }

  public long activeConnections() {
    return activeConnections.get();
  }

  public long totalConnections() {
    return (long) acceptedConnections.count();
  }

  public long maxConnections() {
    return maxConnections.get();
  }

  // ------------------------------------------------------------- resources

  /** Work queue depth and pool size of the operation workers. */
  /** Reports the persistent searches open now and those ended because their client lagged. */
  public void bindPersistentSearches(IntSupplier open, LongSupplier overflowed) {
    this.persistentSearches = open;
    this.persistentSearchesOverflowed = overflowed;
    Gauge.builder("ldap.persistent.searches.active", open, IntSupplier::getAsInt)
        .description("Persistent searches open now")
        .register(registry);
    FunctionCounter.builder(
            "ldap.persistent.searches.overflowed", overflowed, LongSupplier::getAsLong)
        .description("Persistent searches ended because their client left too many changes unread")
        .register(registry);
  }

  public int persistentSearches() {
    return persistentSearches.getAsInt();
  }

  public long persistentSearchesOverflowed() {
    return persistentSearchesOverflowed.getAsLong();
  }

  public void bindWorkers(ThreadPoolExecutor workers) {
    Gauge.builder("ldap.work.queue.depth", workers, w -> w.getQueue().size())
        .description("Requests waiting for a worker thread")
        .register(registry);
    Gauge.builder("ldap.work.threads.active", workers, ThreadPoolExecutor::getActiveCount)
        .description("Worker threads running an operation now")
        .register(registry);
  }

  /**
   * The replication group as this server sees it: its role (one gauge per role, 1 for the current
   * one), whether it takes writes, the term, the commit and applied indexes, and per member (tagged
   * {@code member}) its last replicated index and lag behind the commit index, which only the
   * leader knows of the other members (NaN elsewhere).
   */
  public void bindReplication(Supplier<GroupStatus> group) {
    // Strong references: a gauge holds its object weakly, and nothing else holds this supplier.
    for (String role : List.of("leader", "follower", "candidate")) {
      Gauge.builder(
              "rockds.replication.role",
              group,
              g -> figure(g.get(), s -> role.equals(s.role()) ? 1 : 0))
          .tag("role", role)
          .description("1 for the role this server has in its replication group, else 0")
          .strongReference(true)
          .register(registry);
    }
    Gauge.builder(
            "rockds.replication.writable", group, g -> figure(g.get(), s -> s.writable() ? 1 : 0))
        .description("1 while the server knows a leader and takes writes, 0 while it refuses them")
        .strongReference(true)
        .register(registry);
    Gauge.builder("rockds.replication.term", group, g -> figure(g.get(), GroupStatus::term))
        .description("The current Raft term")
        .strongReference(true)
        .register(registry);
    Gauge.builder(
            "rockds.replication.commit.index",
            group,
            g -> figure(g.get(), GroupStatus::commitIndex))
        .description("The last replication log index known committed")
        .strongReference(true)
        .register(registry);
    Gauge.builder(
            "rockds.replication.applied.index",
            group,
            g -> figure(g.get(), GroupStatus::appliedIndex))
        .description("The last replication log index this server applied")
        .strongReference(true)
        .register(registry);
    GroupStatus now = group.get();
    for (MemberStatus member : now == null ? List.<MemberStatus>of() : now.members()) {
      String id = member.id();
      Gauge.builder(
              "rockds.replication.member.index",
              group,
              g -> figure(g.get(), s -> matchIndex(s, id)))
          .tag("member", id)
          .description("The last log index known replicated on the member (NaN when unknown)")
          .strongReference(true)
          .register(registry);
      Gauge.builder(
              "rockds.replication.member.lag",
              group,
              g -> figure(g.get(), s -> s.commitIndex() - matchIndex(s, id)))
          .tag("member", id)
          .description(
              "Log entries the member is behind the commit index (known to the leader; NaN"
                  + " elsewhere)")
          .strongReference(true)
          .register(registry);
    }
  }

  /** A member's replicated index, NaN when this server does not know it. */
  private static double matchIndex(GroupStatus group, String member) {
    for (MemberStatus m : group.members()) {
      if (m.id().equals(member)) {
        return m.matchIndex() < 0 ? Double.NaN : m.matchIndex();
      }
    }
    return Double.NaN;
  }

  /** A figure of the group, NaN when the server cannot tell its state. */
  private static double figure(GroupStatus group, ToDoubleFunction<GroupStatus> figure) {
    return group == null ? Double.NaN : figure.applyAsDouble(group);
  }

  /** Entry cache and RocksDB figures of one backend, tagged {@code backend}. */
  public void bindBackend(Backend backend) {
    Tags tags = Tags.of("backend", backend.id());
    Gauge.builder("rockds.backend.entries", backend, b -> safe(() -> b.entryCount()))
        .tags(tags)
        .description("Entries the backend holds")
        .register(registry);
    Gauge.builder("rockds.entry.cache.entries", backend, Backend::entryCacheSize)
        .tags(tags)
        .description("Decoded entries in the entry cache")
        .register(registry);
    cacheCounter(
        "rockds.entry.cache.hits",
        "Entry reads answered by the entry cache",
        backend,
        b -> b.entryCacheStats() == null ? 0 : b.entryCacheStats().hitCount(),
        tags);
    cacheCounter(
        "rockds.entry.cache.misses",
        "Entry reads the entry cache could not answer",
        backend,
        b -> b.entryCacheStats() == null ? 0 : b.entryCacheStats().missCount(),
        tags);
    cacheCounter(
        "rockds.entry.cache.evictions",
        "Entries evicted from the entry cache",
        backend,
        b -> b.entryCacheStats() == null ? 0 : b.entryCacheStats().evictionCount(),
        tags);
    Gauge.builder("rockds.backend.untrusted.indexes", backend, ServerMetrics::untrustedIndexes)
        .tags(tags)
        .description("Indexes searches ignore until rebuilt (rebuild-index)")
        .register(registry);
    Gauge.builder(
            "rockds.disk.free",
            backend,
            b -> safe(() -> Files.getFileStore(b.settings().directory()).getUsableSpace()))
        .baseUnit("bytes")
        .tags(tags)
        .description("Space left for the backend's database on its file system")
        .register(registry);
    Gauge.builder(
            "rockds.disk.total",
            backend,
            b -> safe(() -> Files.getFileStore(b.settings().directory()).getTotalSpace()))
        .baseUnit("bytes")
        .tags(tags)
        .description("Size of the file system holding the backend's database")
        .register(registry);
    Gauge.builder("rocksdb.block.cache.usage", backend, Backend::blockCacheUsage)
        .baseUnit("bytes")
        .tags(tags)
        .description("Bytes of the RocksDB block cache in use: blocks and memtables")
        .register(registry);
    ticker(
        "rocksdb.block.cache.hits",
        "Block reads answered by the RocksDB block cache",
        backend,
        TickerType.BLOCK_CACHE_HIT,
        1,
        null,
        tags);
    ticker(
        "rocksdb.block.cache.misses",
        "Block reads that went to the SST files",
        backend,
        TickerType.BLOCK_CACHE_MISS,
        1,
        null,
        tags);
    ticker(
        "rocksdb.write.stall",
        "Time writes were stalled or slowed down by RocksDB (compaction behind)",
        backend,
        TickerType.STALL_MICROS,
        1e-6,
        "seconds",
        tags);
    ticker(
        "rocksdb.wal.syncs",
        "Write-ahead log fsyncs",
        backend,
        TickerType.WAL_FILE_SYNCED,
        1,
        null,
        tags);
    ticker(
        "rocksdb.write",
        "Bytes written to RocksDB (memtables and WAL)",
        backend,
        TickerType.BYTES_WRITTEN,
        1,
        "bytes",
        tags);
    Gauge.builder("rocksdb.memtable.size", backend, Backend::memtableUsage)
        .baseUnit("bytes")
        .tags(tags)
        .description("Bytes held in RocksDB memtables (charged to the block cache)")
        .register(registry);
    Gauge.builder("rockds.entry.cache.bytes", backend, Backend::entryCacheBytes)
        .baseUnit("bytes")
        .tags(tags)
        .description("Estimated heap bytes of the entries in the entry cache")
        .register(registry);
    Gauge.builder("rockds.entry.cache.capacity", backend, b -> b.settings().entryCacheBytes())
        .baseUnit("bytes")
        .tags(tags)
        .description("Bytes the entry cache may hold (its share of the memory budget)")
        .register(registry);
    Gauge.builder("rocksdb.block.cache.capacity", backend, Backend::blockCacheCapacity)
        .baseUnit("bytes")
        .tags(tags)
        .description(
            "Bytes the RocksDB block cache may hold, blocks and memtables together (their shares"
                + " of the memory budget)")
        .register(registry);
    // Per block type: index and filter misses that grow with traffic mean they do not stay
    // resident.
    for (String type : List.of("data", "index", "filter")) {
      Tags typed = tags.and("type", type);
      String upper = type.toUpperCase(Locale.ROOT);
      ticker(
          "rocksdb.block.cache.type.hits",
          "Block reads answered by the block cache, by block type",
          backend,
          TickerType.valueOf("BLOCK_CACHE_" + upper + "_HIT"),
          1,
          null,
          typed);
      ticker(
          "rocksdb.block.cache.type.misses",
          "Block reads that went to the SST files, by block type",
          backend,
          TickerType.valueOf("BLOCK_CACHE_" + upper + "_MISS"),
          1,
          null,
          typed);
    }
    ticker(
        "rocksdb.blocks.decompressed",
        "Data, index and filter blocks decompressed",
        backend,
        TickerType.NUMBER_BLOCK_DECOMPRESSED,
        1,
        null,
        tags);
    Gauge.builder("rocksdb.memtable.capacity", backend, Backend::memtableBound)
        .baseUnit("bytes")
        .tags(tags)
        .description(
            "Bytes RocksDB memtables may hold before the largest is flushed (an eighth of the"
                + " table files as they grow, within their share of the memory budget)")
        .register(registry);
    Gauge.builder(
            "rocksdb.pending.compaction",
            backend,
            b -> b.longProperty("rocksdb.estimate-pending-compaction-bytes"))
        .baseUnit("bytes")
        .tags(tags)
        .description("Bytes RocksDB estimates compaction must still rewrite")
        .register(registry);
    Gauge.builder("rocksdb.sst.size", backend, b -> b.longProperty("rocksdb.total-sst-files-size"))
        .baseUnit("bytes")
        .tags(tags)
        .description("Bytes of the backend's SST files")
        .register(registry);
  }

  /** When the certificate the listeners serve expires (it changes with a restart). */
  public void bindCertificateExpiry(Instant expiry) {
    Gauge.builder("rockds.tls.certificate.expiry.timestamp", expiry, Instant::getEpochSecond)
        .baseUnit("seconds")
        .description("When the TLS certificate the server presents expires (Unix time)")
        .register(registry);
  }

  private static long untrustedIndexes(Backend backend) {
    return backend.containers().stream()
        .flatMap(c -> c.indexes().stream())
        .filter(i -> !i.isTrusted())
        .count();
  }

  private void cacheCounter(
      String name, String description, Backend backend, ToDoubleFunction<Backend> f, Tags tags) {
    FunctionCounter.builder(name, backend, f)
        .tags(tags)
        .description(description)
        .register(registry);
  }

  private void ticker(
      String name,
      String description,
      Backend backend,
      TickerType ticker,
      double scale,
      String unit,
      Tags tags) {
    FunctionCounter.builder(name, backend, b -> b.statistics().getTickerCount(ticker) * scale)
        .tags(tags)
        .baseUnit(unit)
        .description(description)
        .register(registry);
  }

  private interface LongSupplierWithException {
    long get() throws Exception;
  }

  private static double safe(LongSupplierWithException s) {
    try {
      return s.get();
    } catch (Exception e) {
      return Double.NaN;
    }
  }

  public void close() {
    registry.close();
  }
}
