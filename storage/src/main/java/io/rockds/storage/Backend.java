package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.ReadTier;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileManager;
import org.rocksdb.Statistics;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

/**
 * One backend: one RocksDB database holding an {@link EntryContainer} (a set of column families
 * named {@code /<base DN>/<tree>}) per base DN.
 *
 * <p>Why one database per backend rather than one for the server: a backend is the unit operators
 * import with {@code --clearBackend}, back up, restore and tune for durability; its own directory,
 * WAL and lock make each of those a directory-level operation. The block cache can still be shared
 * across backends by passing the same settings.
 *
 * <p>Entry IDs are allocated per backend (shared by its base DNs), starting after the largest ID in
 * any {@code id2entry}; they are never reused while the backend is open.
 */
public final class Backend implements AutoCloseable {
  private static final String DEFAULT_CF = "default";

  /** Where {@link #following} keeps a follow-up until {@link #followedUp}. */
  private static final byte[] FOLLOW_UP_KEY = "pending-follow-up".getBytes(StandardCharsets.UTF_8);

  private final BackendSettings settings;
  private final IndexEntryLimits entryLimits;
  private final Schema schema;
  private final Map<TreeTuning.Kind, ColumnFamilyOptions> treeOptions;

  /** Where a read-only (secondary) instance keeps its own logs; null when opened for writing. */
  private final Path secondaryDirectory;

  private final RocksDB db;
  private final List<AutoCloseable> resources;
  private final List<ColumnFamilyHandle> handles; // grows when an index is added: guarded by this
  private final WriteOptions writeOptions;
  private final WriteOptions unsyncedWriteOptions = new WriteOptions().setSync(false);

  /** Reads that never wait for the disk ({@link ReadFrom#MEMORY}). */
  private final ReadOptions memoryOnlyReads =
      new ReadOptions().setReadTier(ReadTier.BLOCK_CACHE_TIER);

  private final Statistics statistics;
  private final LRUCache blockCache;

  /** Null when the memtables keep the whole share (tools writing in bulk, read-only views). */
  private final MemtableBound memtableBound;

  private final Map<DN, EntryContainer> containers = new LinkedHashMap<>();
  private final EntryCache entryCache;
  private final AtomicLong nextId = new AtomicLong(1);
  private final StorageHealth health;

  /**
   * The log position the current thread's writes apply, if any: written into the same batch, so
   * that a replicated change and the record of having applied it are durable together.
   */
  private final ThreadLocal<AppliedRecord> applying = new ThreadLocal<>();

  /** A record of a replicated log being applied: where it is, and its change number. */
  private record AppliedRecord(LogPosition position, long changeNumber) {}

  /** The change the current thread's next batch records in the changelog, if any. */
  private final ThreadLocal<PendingChange> recording = new ThreadLocal<>();

  /** The follow-up the current thread's next batch stores ({@link #following}), if any. */
  private final ThreadLocal<Write<byte[]>> followUp = new ThreadLocal<>();

  /** Null when opened read-only before any change was recorded. */
  private Changelog changelog;

  private CachePreload preload; // guarded by this

  static {
    RocksDB.loadLibrary();
  }

  private Backend(
      BackendSettings settings,
      Schema schema,
      RocksDB db,
      List<AutoCloseable> resources,
      List<ColumnFamilyHandle> handles,
      Statistics statistics,
      LRUCache blockCache,
      Map<TreeTuning.Kind, ColumnFamilyOptions> treeOptions,
      Path secondaryDirectory,
      StorageHealth health,
      long memtableFloorBytes) {
    this.settings = settings;
    this.entryLimits = IndexEntryLimits.of(settings);
    this.health = health;
    this.schema = schema;
    this.treeOptions = treeOptions;
    this.secondaryDirectory = secondaryDirectory;
    this.db = db;
    this.resources = resources;
    this.handles = handles;
    this.statistics = statistics;
    this.blockCache = blockCache;
    this.memtableBound =
        memtableFloorBytes > 0
            ? new MemtableBound(db, handles, this, memtableFloorBytes, settings.memtableBytes())
            : null;
    this.writeOptions = new WriteOptions().setSync(settings.syncWrites());
    this.entryCache =
        settings.entryCacheBytes() > 0
            ? new EntryCache(settings.entryCacheBytes(), settings.cacheSmallEntries())
            : null;
  }

  /**
   * Opens (creating if needed) the backend for exclusive use, its memtables bounded by the whole
   * {@link BackendSettings#memtableBytes} (tools writing in bulk). An index whose column family is
   * new while the container already holds entries is marked untrusted until rebuilt; one whose
   * entry limit changed since its records were written stays trusted ({@link IndexEntryLimits}).
   * Fails with a message naming the holder when another process (a running server, an import) has
   * the database open.
   */
  public static Backend open(BackendSettings settings, Schema schema) throws LDAPException {
    return open(settings, schema, null, 0);
  }

  /**
   * Opens the backend as {@link #open} does, for a server: its memtables bounded by an eighth of
   * its table files as they grow, within {@link BackendSettings#memtableBytes} ({@link
   * MemtableBound}).
   */
  public static Backend openServing(BackendSettings settings, Schema schema) throws LDAPException {
    return openServing(settings, schema, MemoryBudget.MIN_SERVING_MEMTABLE_BYTES);
  }

  /** The same with another floor for the memtables' bound than a server's. */
  static Backend openServing(BackendSettings settings, Schema schema, long memtableFloorBytes)
      throws LDAPException {
    return open(settings, schema, null, memtableFloorBytes);
  }

  /**
   * Opens the backend read-only, beside a server or tool that may hold it open for writing: a
   * RocksDB secondary instance showing the state as of opening (call {@link #catchUp} for later
   * writes). Its own logs go to a temporary directory removed on close. Configured indexes that do
   * not exist on disk yet are left out; every write fails.
   */
  public static Backend openReadOnly(BackendSettings settings, Schema schema) throws LDAPException {
    if (!Files.exists(settings.directory().resolve("CURRENT"))) {
      throw new LDAPException(
          ResultCode.UNAVAILABLE,
          "backend " + settings.id() + " has no database at " + settings.directory());
    }
    try {
      return open(settings, schema, Files.createTempDirectory("rockds-secondary-"), 0);
    } catch (java.io.IOException e) {
      throw new LDAPException(
          ResultCode.UNAVAILABLE, "cannot create a temporary directory: " + e, e);
    }
  }

  /**
   * {@code memtableFloorBytes}: 0 for memtables bounded by the whole share, else the bound's floor.
   */
  private static Backend open(
      BackendSettings settings, Schema schema, Path secondary, long memtableFloorBytes)
      throws LDAPException {
    boolean readOnly = secondary != null;
    List<AutoCloseable> resources = new ArrayList<>();
    try {
      Files.createDirectories(settings.directory());
      Statistics statistics = new Statistics();
      // One bound for blocks and memtables: the memtables are charged to the block cache, which
      // holds their share beside its own and gives blocks whatever memtables do not use.
      LRUCache blockCache =
          TreeTuning.blockCache(settings.blockCacheBytes() + settings.memtableBytes());
      resources.add(blockCache);
      WriteBufferManager memtables =
          new WriteBufferManager(settings.memtableBytes(), blockCache, false);
      resources.add(memtables);
      resources.add(statistics);
      DBOptions dbOptions =
          new DBOptions()
              .setCreateIfMissing(!readOnly)
              .setCreateMissingColumnFamilies(!readOnly)
              .setMaxBackgroundJobs(2)
              .setBytesPerSync(1 << 20)
              .setEnableWriteThreadAdaptiveYield(false)
              .setAllowConcurrentMemtableWrite(false)
              // Reused log files: a synced append then writes its data block only, where a growing
              // file also makes the file system journal the file's new size on every sync.
              .setRecycleLogFileNum(4)
              .setKeepLogFileNum(5)
              // One bound for the memtables of all column families (each would otherwise grow to
              // 64 MB twice over): the oldest one is flushed when they reach it together.
              .setWriteBufferManager(memtables)
              .setStatistics(statistics);
      StorageHealth health = new StorageHealth(settings.id());
      if (readOnly) {
        // A secondary must keep every table file open: the primary may delete them while
        // compacting.
        dbOptions.setMaxOpenFiles(-1);
      } else {
        // With an SST file manager RocksDB recovers from a full disk by itself once space returns.
        SstFileManager files = new SstFileManager(Env.getDefault());
        resources.add(files);
        AbstractEventListener listener = health.listener();
        resources.add(listener);
        dbOptions.setSstFileManager(files).setListeners(List.of(listener));
      }
      resources.add(dbOptions);
      Map<TreeTuning.Kind, ColumnFamilyOptions> options = new EnumMap<>(TreeTuning.Kind.class);
      for (TreeTuning.Kind kind : TreeTuning.Kind.values()) {
        options.put(kind, TreeTuning.options(kind, settings.compression(), blockCache));
        resources.add(options.get(kind));
      }
      ColumnFamilyOptions plain = options.get(TreeTuning.Kind.KEYS);

      Set<String> existing = new HashSet<>();
      String path = settings.directory().toString();
      try (Options probe = new Options()) {
        if (Files.exists(settings.directory().resolve("CURRENT"))) {
          for (byte[] name : RocksDB.listColumnFamilies(probe, path)) {
            existing.add(new String(name, StandardCharsets.UTF_8));
          }
        }
      }
      Map<String, ColumnFamilyDescriptor> wanted = new LinkedHashMap<>();
      wanted.put(DEFAULT_CF, new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, plain));
      wanted.put(Changelog.TREE, TreeTuning.descriptor(Changelog.TREE, plain));
      List<IndexDefinition> defs = IndexDefinition.all(settings, schema);
      for (DN base : settings.baseDns()) {
        String prefix = EntryContainer.rawPrefix(base);
        for (String tree : List.of("dn2id", "id2entry", "id2values", "id2childrencount", "state")) {
          wanted.put(
              prefix + tree,
              TreeTuning.descriptor(prefix + tree, options.get(TreeTuning.kindOf(prefix + tree))));
        }
        for (IndexDefinition def : defs) {
          wanted.put(prefix + def.name(), TreeTuning.descriptor(prefix + def.name(), plain));
        }
      }
      // Column families of indexes no longer configured stay open (RocksDB requires it) but unused.
      for (String name : existing) {
        wanted.putIfAbsent(name, TreeTuning.descriptor(name, options.get(TreeTuning.kindOf(name))));
      }
      if (readOnly) {
        wanted.keySet().retainAll(existing);
      }
      List<ColumnFamilyDescriptor> descriptors = new ArrayList<>(wanted.values());
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      RocksDB db =
          readOnly
              ? RocksDB.openAsSecondary(dbOptions, path, secondary.toString(), descriptors, handles)
              : RocksDB.open(dbOptions, path, descriptors, handles);
      Map<String, ColumnFamilyHandle> byName = new LinkedHashMap<>();
      for (int i = 0; i < descriptors.size(); i++) {
        byName.put(
            new String(descriptors.get(i).getName(), StandardCharsets.UTF_8), handles.get(i));
      }
      Backend backend =
          new Backend(
              settings,
              schema,
              db,
              resources,
              handles,
              statistics,
              blockCache,
              options,
              secondary,
              health,
              memtableFloorBytes);
      for (DN base : settings.baseDns()) {
        backend.openContainer(base, byName, defs, existing);
      }
      ColumnFamilyHandle changelog = byName.get(Changelog.TREE);
      if (changelog != null) {
        backend.changelog = new Changelog(backend, db, changelog);
      }
      backend.nextId.set(backend.largestId() + 1);
      return backend;
    } catch (RocksDBException e) {
      closeAll(resources);
      throw openFailure(settings, e);
    } catch (java.io.IOException e) {
      closeAll(resources);
      throw new LDAPException(
          ResultCode.UNAVAILABLE, "cannot create " + settings.directory() + ": " + e, e);
    }
  }

  private static LDAPException openFailure(BackendSettings settings, RocksDBException e) {
    String message = String.valueOf(e.getMessage());
    if (message.contains("lock") || message.contains("LOCK")) {
      return new LDAPException(
          ResultCode.UNAVAILABLE,
          "the database of backend "
              + settings.id()
              + " at "
              + settings.directory()
              + " is in use by another process (its LOCK file is held): this needs exclusive"
              + " access, so stop the server or tool using it first",
          e);
    }
    return new LDAPException(
        ResultCode.UNAVAILABLE,
        "cannot open backend " + settings.id() + " at " + settings.directory() + ": " + message,
        e);
  }

  private void openContainer(
      DN base,
      Map<String, ColumnFamilyHandle> byName,
      List<IndexDefinition> defs,
      Set<String> existing)
      throws RocksDBException, LDAPException {
    String prefix = EntryContainer.rawPrefix(base);
    if (!byName.containsKey(prefix + "id2entry")) {
      return; // read-only, and this base DN was never written
    }
    BackendState state = new BackendState(db, byName.get(prefix + "state"), prefix);
    AttributeDictionary dictionary = new AttributeDictionary(db, byName.get(prefix + "state"));
    boolean empty = state.entryCount() == 0;
    Map<String, AttributeIndex> indexes = new LinkedHashMap<>();
    for (IndexDefinition def : defs) {
      ColumnFamilyHandle handle = byName.get(prefix + def.name());
      if (handle == null) {
        continue; // read-only: not created yet
      }
      AttributeIndex index = def.open(db, handle, prefix, schema, entryLimits);
      index.setTrustedFlag(
          readOnly()
              ? !Boolean.FALSE.equals(state.isTrusted(def.name()))
              : def.reconcileTrust(state, index, empty, !existing.contains(prefix + def.name())));
      Integer builtWith = state.storedEntryLimit(def.name());
      index.setBuiltWithLimit(builtWith != null ? builtWith : index.entryLimit().limit());
      indexes.put(def.name(), index);
    }
    EntryCodec codec = new EntryCodec(dictionary);
    // Absent only from a database written before values were stored apart, opened read-only:
    // its records hold every value.
    ColumnFamilyHandle valuesHandle = byName.get(prefix + "id2values");
    Id2Values values =
        valuesHandle == null ? null : new Id2Values(db, valuesHandle, prefix, schema);
    containers.put(
        base,
        new EntryContainer(
            this,
            base,
            new Dn2Id(db, byName.get(prefix + "dn2id"), prefix, memoryOnlyReads),
            new Id2Entry(
                db, byName.get(prefix + "id2entry"), prefix, codec, values, memoryOnlyReads),
            new Id2ChildrenCount(db, byName.get(prefix + "id2childrencount"), prefix),
            state,
            indexes));
  }

  /**
   * Adds an index while the backend is open (e.g. after dsconfig create-backend-index): creates its
   * column families in every container. In a container that already holds entries the new index is
   * untrusted, so searches ignore it, until rebuilt; writes maintain it from now on. Returns the
   * indexes created (none if they all existed).
   */
  public synchronized List<AttributeIndex> addIndex(IndexSpec spec) throws LDAPException {
    requireWritable();
    if (spec.entryLimit() != null) {
      entryLimits.setOwnLimit(spec.attribute(), spec.entryLimit());
    }
    List<AttributeIndex> created = new ArrayList<>();
    try {
      for (EntryContainer container : containers.values()) {
        String prefix = EntryContainer.rawPrefix(container.baseDn());
        for (IndexDefinition def : IndexDefinition.of(spec, settings, schema)) {
          if (container.indexNamed(def.name()) != null) {
            continue;
          }
          ColumnFamilyHandle handle =
              db.createColumnFamily(
                  TreeTuning.descriptor(
                      prefix + def.name(), treeOptions.get(TreeTuning.Kind.KEYS)));
          handles.add(handle);
          AttributeIndex index = def.open(db, handle, prefix, schema, entryLimits);
          container.addIndex(index);
          created.add(index);
        }
      }
      return created;
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * Opens (or creates) a VLV index in the container holding its base DN: at startup for each
   * configured one, or after dsconfig create-backend-vlv-index. New in a container that holds
   * entries, it is untrusted (searches sort in memory instead) until rebuilt; writes maintain it
   * from now on.
   */
  public synchronized VlvIndex addVlvIndex(VlvSpec spec) throws LDAPException {
    EntryContainer container = containerFor(spec.base());
    if (container == null) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "base-dn " + spec.base() + " of VLV index " + spec.name() + " is not in backend " + id());
    }
    VlvIndex existing = container.vlvIndexNamed(spec.name());
    if (existing != null) {
      return existing;
    }
    String rawName = EntryContainer.rawPrefix(container.baseDn()) + spec.treeName();
    try {
      ColumnFamilyHandle handle = handleNamed(rawName);
      boolean fresh = handle == null;
      if (fresh) {
        if (readOnly()) {
          return null;
        }
        handle =
            db.createColumnFamily(
                TreeTuning.descriptor(rawName, treeOptions.get(TreeTuning.Kind.KEYS)));
        handles.add(handle);
      }
      VlvIndex index =
          new VlvIndex(db, handle, EntryContainer.rawPrefix(container.baseDn()), spec, schema);
      container.addVlvIndex(index, fresh);
      return index;
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** Stops maintaining a VLV index and drops its tree (dsconfig delete-backend-vlv-index). */
  public synchronized void removeVlvIndex(String name) throws LDAPException {
    requireWritable();
    stopPreload(); // no scan may be inside a tree being dropped
    for (EntryContainer container : containers()) {
      VlvIndex index = container.vlvIndexNamed(name);
      if (index != null) {
        container.removeVlvIndex(index);
        try {
          db.dropColumnFamily(index.handle());
          handles.remove(index.handle());
          index.handle().close();
        } catch (RocksDBException e) {
          throw StorageErrors.wrap(e);
        }
      }
    }
  }

  private ColumnFamilyHandle handleNamed(String rawName) throws RocksDBException {
    byte[] wanted = rawName.getBytes(StandardCharsets.UTF_8);
    for (ColumnFamilyHandle handle : handles) {
      if (Arrays.equals(handle.getName(), wanted)) {
        return handle;
      }
    }
    return null;
  }

  /**
   * Options for SST files written for ingestion into trees of this kind: their compression and
   * table format.
   */
  Options sstOptions(TreeTuning.Kind kind) {
    try (DBOptions dbOptions = new DBOptions()) {
      return new Options(dbOptions, treeOptions.get(kind));
    }
  }

  void invalidateAll() {
    if (entryCache != null) {
      entryCache.invalidateAll();
    }
  }

  /** Reads writes the primary committed since this read-only backend opened or last caught up. */
  public void catchUp() throws LDAPException {
    if (!readOnly()) {
      return;
    }
    try {
      db.tryCatchUpWithPrimary();
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  public boolean readOnly() {
    return secondaryDirectory != null;
  }

  private void requireWritable() throws LDAPException {
    if (readOnly()) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "backend "
              + settings.id()
              + " is open read-only; this needs exclusive access: stop the server first");
    }
  }

  private long largestId() {
    long max = 0;
    for (EntryContainer container : containers.values()) {
      try (RocksIterator it = container.id2entry().newIterator()) {
        it.seekToLast();
        if (it.isValid()) {
          max = Math.max(max, Bytes.readLongKey(it.key(), 0));
        }
      }
    }
    return max;
  }

  // ---------------------------------------------------------------- API

  public String id() {
    return settings.id();
  }

  public BackendSettings settings() {
    return settings;
  }

  /** The index-entry-limits in force: the live configuration, changed through its setters. */
  public IndexEntryLimits entryLimits() {
    return entryLimits;
  }

  public List<DN> baseDns() {
    return settings.baseDns();
  }

  public List<EntryContainer> containers() {
    return List.copyOf(containers.values());
  }

  /** The container holding {@code dn} (its base DN or a descendant), or null. */
  public EntryContainer containerFor(DN dn) {
    EntryContainer best = null;
    for (EntryContainer c : containers.values()) {
      if (dn.isDescendantOf(c.baseDn(), true)
          && (best == null || c.baseDn().getRDNs().length > best.baseDn().getRDNs().length)) {
        best = c;
      }
    }
    return best;
  }

  /** Total entries in every container. */
  public long entryCount() throws LDAPException {
    long n = 0;
    for (EntryContainer c : containers.values()) {
      n += c.entryCount();
    }
    return n;
  }

  /** Entry cache hits, misses, evictions and size; null when the cache is disabled. */
  public com.github.benmanes.caffeine.cache.stats.CacheStats entryCacheStats() {
    return entryCache == null ? null : entryCache.stats();
  }

  public long entryCacheSize() {
    return entryCache == null ? 0 : entryCache.entries();
  }

  /** Bytes of heap the entry cache holds. */
  public long entryCacheBytes() {
    return entryCache == null ? 0 : entryCache.bytes();
  }

  /** RocksDB statistics (block cache hits, stalls, WAL syncs) for metrics. */
  public Statistics statistics() {
    return statistics;
  }

  /** Bytes the block cache holds: blocks, and the memtables charged to it. */
  public long blockCacheUsage() {
    return blockCache.getUsage();
  }

  /** The block cache's bound: its share of the budget plus the memtables' share. */
  public long blockCacheCapacity() {
    return settings.blockCacheBytes() + settings.memtableBytes();
  }

  /**
   * The memtables' bound in effect: an eighth of the table files now for a serving backend, within
   * the share ({@link MemtableBound}); the whole share otherwise.
   */
  public long memtableBound() {
    return memtableBound != null ? memtableBound.bytes() : settings.memtableBytes();
  }

  /** Bytes the memtables of every column family hold. */
  public long memtableUsage() {
    return longProperty("rocksdb.cur-size-all-mem-tables");
  }

  /**
   * A RocksDB integer property summed over every column family, e.g. {@code
   * rocksdb.cur-size-all-mem-tables}.
   */
  public long longProperty(String property) {
    long total = 0;
    for (ColumnFamilyHandle handle : handles) {
      try {
        total += db.getLongProperty(handle, property);
      } catch (RocksDBException e) {
        return -1;
      }
    }
    return total;
  }

  /** The RocksDB handle, for tools that inspect raw trees and take checkpoints. */
  public RocksDB rocksDb() {
    return db;
  }

  long nextId() {
    return nextId.getAndIncrement();
  }

  /**
   * The ID the next add will get; stable while the caller holds every container's structure lock.
   */
  long peekNextId() {
    return nextId.get();
  }

  void write(WriteBatch batch) throws LDAPException {
    write(writeOptions, batch);
  }

  /**
   * Writes to the WAL without fsync: maintenance batches, made durable at once by {@link #syncWal}.
   */
  void writeUnsynced(WriteBatch batch) throws LDAPException {
    write(unsyncedWriteOptions, batch);
  }

  private void write(WriteOptions options, WriteBatch batch) throws LDAPException {
    requireWritable();
    PendingChange change = recording.get();
    long number = -1;
    try {
      AppliedRecord applied = applying.get();
      if (applied != null) {
        batch.put(db.getDefaultColumnFamily(), LogPosition.KEY, applied.position().encode());
      }
      Write<byte[]> pendingFollowUp = followUp.get();
      if (pendingFollowUp != null) {
        followUp.remove(); // only the change's batch: the follow-up's own batches come later
        batch.put(db.getDefaultColumnFamily(), FOLLOW_UP_KEY, pendingFollowUp.run());
      }
      if (change != null && change.number() < 0) {
        // Only the first batch of an application is the change; later ones (referential
        // integrity) are its consequences.
        recording.remove();
        number = change.numbers().claim(applied != null ? applied.changeNumber() : -1);
        changelog.put(batch, number, change.timeMillis(), change.description());
      }
      // A batch applying a record of a replicated log is not synced: the log holds the record
      // durably (synced by a majority before it was committed) and replays it after a crash from
      // the position this batch stores, so a sync here would only serialise a second fsync per
      // record behind the log's. A checkpoint (the snapshot the log is purged behind) flushes.
      db.write(applied != null ? unsyncedWriteOptions : options, batch);
      if (number >= 0) {
        change.committed(number);
      }
    } catch (RocksDBException e) {
      StorageException failure = StorageErrors.wrap(e);
      health.failed(failure);
      throw failure;
    } finally {
      if (number >= 0) {
        change.numbers().finished(number);
      }
    }
    health.succeeded();
    if (memtableBound != null) {
      memtableBound.written(batch.getDataSize());
    }
  }

  /** A write that may refuse with an LDAP result. */
  @FunctionalInterface
  public interface Write<T> {
    T run() throws LDAPException;
  }

  /**
   * Runs {@code write} on this thread so that every batch it commits also records {@code position}
   * as the last applied position of a replicated log ({@link #appliedPosition}), and a change it
   * records in the changelog has the number {@code changeNumber}. Those batches are not synced: the
   * log is the durable copy of the record, replayed after a crash from the stored position.
   */
  public <T> T applying(LogPosition position, long changeNumber, Write<T> write)
      throws LDAPException {
    return runWith(applying, new AppliedRecord(position, changeNumber), write);
  }

  /**
   * Runs {@code write} on this thread so that the first batch it commits also records {@code
   * change} in this backend's changelog.
   */
  public <T> T recording(PendingChange change, Write<T> write) throws LDAPException {
    return runWith(recording, change, write);
  }

  /**
   * Runs {@code write} on this thread so that the first batch it commits also stores what {@code
   * description} answers (asked then, under that batch's locks): work the change brings that runs
   * in batches of its own after it (referential integrity). Until {@link #followedUp} clears it, it
   * stays stored ({@link #pendingFollowUp}), so a crash in between leaves it for the next start to
   * finish.
   */
  public <T> T following(Write<byte[]> description, Write<T> write) throws LDAPException {
    return runWith(followUp, description, write);
  }

  /** The follow-up a crash interrupted ({@link #following}), or null. */
  public byte[] pendingFollowUp() throws LDAPException {
    try {
      return db.get(db.getDefaultColumnFamily(), FOLLOW_UP_KEY);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** The follow-up stored by {@link #following} is done: forgets it. */
  public void followedUp() throws LDAPException {
    try (WriteBatch batch = new WriteBatch()) {
      batch.delete(db.getDefaultColumnFamily(), FOLLOW_UP_KEY);
      write(batch);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** Whether this thread applies a record of a replicated log ({@link #applying}). */
  public boolean appliesLog() {
    return applying.get() != null;
  }

  /** Runs {@code write} with {@code local} set to {@code value} on this thread. */
  private static <V, T> T runWith(ThreadLocal<V> local, V value, Write<T> write)
      throws LDAPException {
    local.set(value);
    try {
      return write.run();
    } finally {
      local.remove();
    }
  }

  /**
   * The changelog of the changes applied to this backend; null on a read-only backend without one.
   */
  public Changelog changelog() {
    return changelog;
  }

  /** The last log position a committed batch recorded, or {@link LogPosition#NONE}. */
  public LogPosition appliedPosition() throws LDAPException {
    try {
      return LogPosition.decode(db.get(db.getDefaultColumnFamily(), LogPosition.KEY));
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** Whether writes work: degraded after a storage failure until RocksDB recovered. */
  public StorageHealth health() {
    return health;
  }

  void syncWal() throws RocksDBException {
    db.flushWal(true);
  }

  StoredEntry cachedEntry(long id, LongFunction<StoredEntry> loader) throws LDAPException {
    try {
      return entryCache == null ? loader.apply(id) : entryCache.get(id, loader);
    } catch (IllegalStateException e) {
      if (e.getCause() instanceof RocksDBException r) {
        throw StorageErrors.wrap(r);
      }
      throw e;
    }
  }

  /** Whether the entry cache would keep a loaded entry of this footprint. */
  boolean wouldCache(int footprint) {
    return entryCache != null && entryCache.wouldKeep(footprint);
  }

  /** The cached entry, or null: never loads. */
  StoredEntry cachedEntryIfPresent(long id) {
    return entryCache == null ? null : entryCache.getIfPresent(id);
  }

  /** Runs the entry cache's pending evictions now, so that its content can be inspected. */
  void cleanUpEntryCache() {
    if (entryCache != null) {
      entryCache.cleanUp();
    }
  }

  void invalidate(long id) {
    if (entryCache != null) {
      entryCache.invalidate(id);
    }
  }

  /**
   * Starts reading the trees into the block cache on a thread of its own, for at most {@code limit}
   * ({@link CachePreload}); nothing for a zero limit.
   */
  public synchronized void startPreload(Duration limit, Clock clock) {
    if (limit.isZero() || limit.isNegative() || preload != null) {
      return;
    }
    preload =
        new CachePreload(db, preloadOrder(), blockCache, settings.blockCacheBytes(), limit, clock);
    preload.start(settings.id());
  }

  /**
   * What a search reads, most read first: {@code dn2id} and the equality indexes (small, and every
   * search starts there), the counters, the entries; then the other indexes (substring indexes
   * alone outweigh the entries at 10M and serve fewer searches), the values stored apart and the
   * changelog. At 10M entries the cache fills before the end of this list.
   */
  List<ColumnFamilyHandle> preloadOrder() {
    List<ColumnFamilyHandle> first = new ArrayList<>();
    List<ColumnFamilyHandle> entries = new ArrayList<>();
    for (EntryContainer container : containers()) {
      first.add(container.dn2id().handle());
      for (AttributeIndex index : container.indexes()) {
        if (index.indexType() == IndexType.EQUALITY) {
          first.add(index.handle());
        }
      }
      entries.add(container.id2entry().handle());
    }
    List<ColumnFamilyHandle> ordered = new ArrayList<>(first);
    for (ColumnFamilyHandle handle : handles) {
      if (!first.contains(handle)
          && TreeTuning.kindOf(treeName(handle)) == TreeTuning.Kind.COUNTERS) {
        ordered.add(handle);
      }
    }
    ordered.addAll(entries);
    for (ColumnFamilyHandle handle : handles) {
      if (!ordered.contains(handle)) {
        ordered.add(handle);
      }
    }
    return ordered;
  }

  static String treeName(ColumnFamilyHandle handle) {
    try {
      return new String(handle.getName(), StandardCharsets.UTF_8);
    } catch (RocksDBException e) {
      return "";
    }
  }

  /** The preload started at open, if any. */
  public synchronized Optional<CachePreload> preload() {
    return Optional.ofNullable(preload);
  }

  private void stopPreload() {
    CachePreload running;
    synchronized (this) {
      running = preload;
    }
    if (running != null) {
      running.stop();
    }
  }

  /** Flushes memtables and closes the database, releasing its lock. */
  @Override
  public void close() {
    stopPreload();
    try {
      db.syncWal();
    } catch (RocksDBException e) {
      // Closing anyway: the WAL was synced on every commit unless sync was relaxed.
    }
    for (ColumnFamilyHandle handle : handles) {
      handle.close();
    }
    db.close();
    if (memtableBound != null) {
      memtableBound.close();
    }
    writeOptions.close();
    unsyncedWriteOptions.close();
    memoryOnlyReads.close();
    closeAll(resources);
    if (secondaryDirectory != null) {
      deleteTree(secondaryDirectory);
    }
  }

  private static void deleteTree(Path directory) {
    try (java.util.stream.Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException ignored) {
      // A leftover temporary directory is harmless.
    }
  }

  private static void closeAll(List<AutoCloseable> resources) {
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception ignored) {
        // Best effort while failing or closing.
      }
    }
  }
}
