package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The trees of one base DN and the reads across them. Each write is its own class, as back-mdb has
 * a file per operation ({@link EntryAdd}, {@link EntryDelete}, {@link SubtreeDelete}, {@link
 * EntryModify}, {@link SubtreeRename}): it takes the lock stripes of the DNs it touches ({@link
 * WriteLocks}), builds one {@link WriteBatch} across all trees, and commits it once here. Scope
 * walks are {@link ScopeScans}; the indexes are {@link ContainerIndexes}, changed while the
 * container runs by {@link IndexMaintenance}.
 */
public final class EntryContainer {
  /** Computes an entry's new state from its current one; may refuse with an LDAP result. */
  @FunctionalInterface
  public interface EntryChange {
    Entry apply(Entry current) throws LDAPException;
  }

  private final Backend backend;
  private final DN baseDn;
  private final Dn2Id dn2id;
  private final Id2Entry id2entry;
  private final Id2ChildrenCount childrenCount;
  private final BackendState state;
  private final ContainerIndexes indexes;
  private final IndexMaintenance maintenance;
  private final ScopeScans scans;
  private final WriteLocks locks = new WriteLocks();
  private final RecentDnIds recentIds = new RecentDnIds();
  private volatile List<VlvIndex> vlvIndexes = List.of();

  EntryContainer(
      Backend backend,
      DN baseDn,
      Dn2Id dn2id,
      Id2Entry id2entry,
      Id2ChildrenCount childrenCount,
      BackendState state,
      Map<String, AttributeIndex> indexes) {
    this.backend = backend;
    this.baseDn = baseDn;
    this.dn2id = dn2id;
    this.id2entry = id2entry;
    this.childrenCount = childrenCount;
    this.state = state;
    this.indexes = new ContainerIndexes(indexes);
    this.maintenance = new IndexMaintenance(this, this.indexes);
    this.scans = new ScopeScans(dn2id);
  }

  public DN baseDn() {
    return baseDn;
  }

  public Backend backend() {
    return backend;
  }

  /** The prefix of every raw DB name, e.g. {@code /dc=com,dc=example/}. */
  public static String rawPrefix(DN baseDn) {
    RDN[] rdns = baseDn.getRDNs();
    StringBuilder sb = new StringBuilder("/");
    for (int i = rdns.length - 1; i >= 0; i--) {
      sb.append(rdns[i].toNormalizedString());
      if (i > 0) {
        sb.append(',');
      }
    }
    return sb.append('/').toString();
  }

  // ---------------------------------------------------------------- trees

  public Dn2Id dn2id() {
    return dn2id;
  }

  public Id2Entry id2entry() {
    return id2entry;
  }

  public Id2ChildrenCount id2childrenCount() {
    return childrenCount;
  }

  public BackendState state() {
    return state;
  }

  /** Every tree of the container, system trees first, as backendstat lists them. */
  public List<Tree> trees() {
    List<Tree> trees = new ArrayList<>(List.of(dn2id, id2entry));
    if (id2entry.values() != null) {
      trees.add(id2entry.values());
    }
    trees.addAll(List.of(childrenCount, state));
    trees.addAll(indexes.all());
    trees.addAll(vlvIndexes);
    return trees;
  }

  public Collection<AttributeIndex> indexes() {
    return Collections.unmodifiableCollection(indexes.all());
  }

  /** The index with that tree name (e.g. {@code sn.caseIgnoreMatch}), or null. */
  public AttributeIndex indexNamed(String name) {
    return indexes.named(name);
  }

  /** The index of {@code attribute} of that type, or null if there is none. */
  public AttributeIndex index(String attribute, IndexType type) {
    return indexes.of(attribute, type);
  }

  // ---------------------------------------------------------------- index maintenance

  /** Adds a freshly created index: trusted only if the container is empty. */
  void addIndex(AttributeIndex index) throws RocksDBException {
    maintenance.addIndex(index);
  }

  /**
   * Rebuilds these indexes from {@code id2entry} in one pass, while writes continue (see {@link
   * IndexBuild}); each is untrusted until done, then trusted with exact over-limit counts. One
   * rebuild at a time per container: a second one fails with busy.
   *
   * @param progress receives the number of entries indexed so far, after each batch
   */
  public void rebuildIndexes(
      Collection<AttributeIndex> indexes, java.util.function.LongConsumer progress)
      throws LDAPException {
    maintenance.rebuildIndexes(indexes, progress);
  }

  /**
   * Empties the container and starts loading it from scratch (see {@link BulkLoad}). Needs
   * exclusive use of the backend: no other writer may run until the load is finished and closed.
   *
   * @param workDirectory where the load writes its temporary SST files (same volume is fastest)
   */
  public BulkLoad startBulkLoad(java.nio.file.Path workDirectory) throws LDAPException {
    clear();
    return new BulkLoad(this, workDirectory);
  }

  /** Deletes every entry and index record; the indexes are untrusted until reloaded or rebuilt. */
  public void clear() throws LDAPException {
    requireWritable("clearing it");
    Lock exclusive = locks.lockStructureExclusively();
    try {
      for (AttributeIndex index : indexes.all()) {
        state.setTrusted(index.name(), false);
        index.setTrustedFlag(false);
        index.clear();
        state.clearOverLimitCounts(index.name());
      }
      dn2id.clear();
      id2entry.clear();
      id2entry.values().clear();
      childrenCount.clear();
      state.setEntryCount(0);
      backend.invalidateAll();
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      exclusive.unlock();
    }
  }

  void requireWritable(String what) throws LDAPException {
    if (backend.readOnly()) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "backend "
              + backend.id()
              + " is open read-only; "
              + what
              + " needs exclusive access: stop the server first, or run it inside the server");
    }
  }

  // ---------------------------------------------------------------- reads

  /** The ID of {@code dn}, or -1. */
  public long idOf(DN dn) throws LDAPException {
    return idOf(dn, ReadFrom.ANYWHERE);
  }

  private long idOf(DN dn, ReadFrom from) throws LDAPException {
    try {
      return dn2id.get(dn, from);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** The entry, or null. The returned entry is shared with the cache: never modify it. */
  public Entry get(DN dn) throws LDAPException {
    long id = idOf(dn);
    return id < 0 ? null : get(id);
  }

  /**
   * The entry with this ID, or null. Never modify it: it is shared with the cache, or holds the
   * cached entry's attributes and the values stored apart, read now (the cache does not hold them:
   * a group of 100,000 members would evict thousands of entries).
   */
  public Entry get(long id) throws LDAPException {
    StoredEntry cached = backend.cachedEntry(id, this::load);
    return cached != null && cached.lacksValues() ? id2entry.complete(cached) : cached;
  }

  /**
   * The record of entry {@code id} to send as it is stored ({@link EntryRecord}: no entry decoded),
   * or null when the entry is to be read with {@link #get}: it is absent or cached, it lists
   * attributes stored apart, or the entry cache would keep it once decoded (reading records would
   * never fill the cache). Read from memory only if {@code from} says so.
   */
  public EntryRecord recordToSend(long id, ReadFrom from) throws LDAPException {
    if (backend.cachedEntryIfPresent(id) != null) {
      return null;
    }
    try {
      EntryRecord record = id2entry.record(id, from);
      return record == null || backend.wouldCache(record.footprint()) ? null : record;
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * The entry, or null, for matching filters and compares only: it may lack the values of its
   * attributes stored apart ({@link StoredEntry#lacksValues}), which {@link
   * io.rockds.storage.matching.FilterEvaluator} tests by point reads (is this DN a member of that
   * group of a million?). Never send it or read attribute values from it ({@link
   * StoredEntry#withValuesApart} for that); never modify it.
   */
  public Entry getForMatching(DN dn) throws LDAPException {
    long id = idOf(dn);
    return id < 0 ? null : getForMatching(id);
  }

  /**
   * {@link #getForMatching(DN)} by ID: also what readers of the attributes other than member and
   * uniqueMember take, so that they do not read a group's members.
   */
  public Entry getForMatching(long id) throws LDAPException {
    return getForMatching(id, ReadFrom.ANYWHERE);
  }

  /** {@link #getForMatching(long)}, from memory only if {@code from} says so. */
  public Entry getForMatching(long id, ReadFrom from) throws LDAPException {
    return backend.cachedEntry(id, from == ReadFrom.MEMORY ? this::loadFromMemory : this::load);
  }

  /**
   * The DN of the entry with this ID, or null, decoding no attribute: the groups listing a member
   * are found by ID, and a group of 100,000 members need not be decoded to name it.
   */
  public DN dnOf(long id) throws LDAPException {
    StoredEntry cached = backend.cachedEntryIfPresent(id);
    if (cached != null) {
      return cached.getParsedDN();
    }
    try {
      String dn = id2entry.dn(id, ReadFrom.ANYWHERE);
      return dn == null ? null : new DN(dn);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * The entry with this ID reduced to its DN (no attribute decoded, the record's head only), or
   * null: what a search returning no attribute needs once the indexes proved the match. A cached
   * entry is returned as cached (without its values apart). Read from memory only if {@code from}
   * says so. Never modify what this returns.
   */
  public Entry withDnOnly(long id, ReadFrom from) throws LDAPException {
    StoredEntry cached = backend.cachedEntryIfPresent(id);
    if (cached != null) {
      return cached;
    }
    try {
      String dn = id2entry.dn(id, from);
      if (dn == null) {
        return null;
      }
      recentIds.remember(dn, id); // a client may bind as the DN it was sent: see RecentDnIds
      return new Entry(dn);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * The entry with at least the attributes {@code projection} keeps, for testing a filter during a
   * scan: the cached entry if there is one, else a partial decode that bypasses the cache, so that
   * a scan neither decodes whole entries it rejects nor evicts the hot ones. Never send or modify
   * what this returns, and send it only when {@code projection} keeps every attribute sent (else
   * {@link #complete} it once it matches).
   */
  public Entry peek(long id, AttributeProjection projection) throws LDAPException {
    StoredEntry cached = backend.cachedEntryIfPresent(id);
    if (cached != null) {
      return cached.lacksValues() && keepsLacking(cached, projection)
          ? id2entry.complete(cached)
          : cached;
    }
    try {
      return id2entry.get(id, projection);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * What {@link #peek} reads ({@code projection} null: every attribute), but never the values
   * stored apart ({@link Id2Values}: a group's members, which may be millions), which the entry
   * says it lacks ({@link StoredEntry#lacksValues}): one point read, or none when cached. For a
   * reader that must not wait, such as a search on an event loop: it learns from the entry whether
   * it needs those values, and reads them elsewhere; with {@link ReadFrom#MEMORY} it also fails
   * (NOT_IN_MEMORY) rather than wait for the disk. Filters and compares test them by point reads.
   * Never modify what this returns.
   */
  public Entry peekWithoutValuesApart(long id, AttributeProjection projection, ReadFrom from)
      throws LDAPException {
    if (projection == null) {
      return getForMatching(id, from);
    }
    StoredEntry cached = backend.cachedEntryIfPresent(id);
    if (cached != null) {
      return cached;
    }
    try {
      return id2entry.withoutValuesApart(id, projection, from);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * {@link #peekWithoutValuesApart(long, AttributeProjection, ReadFrom)} of the entry named {@code
   * dn}, or null: its ID from {@link RecentDnIds} when that DN, spelled so, was read lately and the
   * record read confirms it, else from one {@code dn2id} read more (from memory only too if {@code
   * from} says so).
   */
  public Entry peekWithoutValuesApart(DN dn, AttributeProjection projection, ReadFrom from)
      throws LDAPException {
    String spelled = dn.toString();
    long id = recentIds.idOf(spelled);
    if (id >= 0) {
      Entry entry = peekWithoutValuesApart(id, projection, from);
      if (entry != null && spelled.equals(entry.getDN())) {
        return entry;
      }
    }
    id = idOf(dn, from);
    if (id < 0) {
      return null;
    }
    Entry entry = peekWithoutValuesApart(id, projection, from);
    if (entry != null) {
      recentIds.remember(entry.getDN(), id);
    }
    return entry;
  }

  /**
   * The whole entry of what {@link #peek} returned: the attributes the peek left out decoded from
   * the record it read, so that a scan reads and decodes each entry once; a cached or whole entry
   * as it is. Not cached (the record may predate a write the cache has seen since). Never modify
   * what this returns.
   */
  public Entry complete(Entry peeked) {
    return peeked instanceof StoredEntry stored
            && (stored instanceof PartialEntry || stored.lacksValues())
        ? id2entry.complete(stored)
        : peeked;
  }

  /**
   * {@link #complete} of an entry lacking only bounded values apart ({@link
   * StoredEntry#lacksOnlyBoundedValues}: photos, certificates), read from memory only, for a search
   * on an event loop: NOT_IN_MEMORY when one is on disk.
   */
  public Entry completeFromMemory(StoredEntry entry) throws LDAPException {
    try {
      return id2entry.complete(entry, ReadFrom.MEMORY);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  private static boolean keepsLacking(StoredEntry entry, AttributeProjection projection) {
    for (StoredEntry.Apart a : entry.lacking()) {
      if (projection.keeps(a.description())) {
        return true;
      }
    }
    return false;
  }

  private StoredEntry load(long id) {
    return load(id, ReadFrom.ANYWHERE);
  }

  private StoredEntry loadFromMemory(long id) {
    return load(id, ReadFrom.MEMORY);
  }

  private StoredEntry load(long id, ReadFrom from) {
    try {
      return id2entry.withoutValuesApart(id, from);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The closest existing ancestor of {@code dn} within this container, or null: the matchedDN. An
   * entry exists only below an existing parent, so the existing ancestors are the top of the chain:
   * a binary search over depths finds the deepest in O(log depth) dn2id reads (a walk up the
   * parents cost one read and one DN copy per RDN, quadratic in a hostile DN's depth).
   */
  public DN matchedDn(DN dn) throws LDAPException {
    if (!dn.isDescendantOf(baseDn, false)) {
      return null;
    }
    RDN[] rdns = dn.getRDNs();
    DN matched = null;
    int shallowest = baseDn.getRDNs().length;
    int deepest = rdns.length - 1;
    while (shallowest <= deepest) {
      int depth = (shallowest + deepest) >>> 1;
      DN ancestor = new DN(Arrays.copyOfRange(rdns, rdns.length - depth, rdns.length));
      if (idOf(ancestor) >= 0) {
        matched = ancestor;
        shallowest = depth + 1;
      } else {
        deepest = depth - 1;
      }
    }
    return matched;
  }

  public long childCount(long id) throws LDAPException {
    try {
      return childrenCount.get(id);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  public long entryCount() throws LDAPException {
    try {
      return state.entryCount();
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * The base entry of a search, its ID read from dn2id once when first needed: what the other scope
   * reads take so that none reads the base again.
   */
  public SearchBase searchBase(DN base, SearchScope scope) {
    return scans.resolve(base, scope);
  }

  /**
   * Whether a search of {@code base} has every entry of this container in scope: then an indexed
   * search needs its base entry only to tell an empty result from noSuchObject.
   */
  public boolean holdsWholeScope(SearchBase base) {
    return base.scope() == SearchScope.SUB && base.dn().equals(baseDn);
  }

  /** Refuses a search whose base entry does not exist with noSuchObject (32) and the matched DN. */
  public void requireSearchBase(SearchBase base) throws LDAPException {
    if (!base.exists()) {
      DN matched = matchedDn(base.dn());
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT,
          "The search base entry " + base.dn() + " does not exist",
          matched == null ? null : matched.toString(),
          null);
    }
  }

  /**
   * The IDs in scope of {@code base}, in DN order, or an undefined set when there are more than
   * {@code maxIds} (0 = no bound). An absent base gives the empty set.
   */
  public IdSet scopeIds(DN base, SearchScope scope, int maxIds) throws LDAPException {
    return scans.scopeIds(base, scope, maxIds);
  }

  /** {@link #scopeIds(DN, SearchScope, int)} of a search base already read. */
  public IdSet scopeIds(SearchBase base, int maxIds) throws LDAPException {
    return scans.scopeIds(base, maxIds);
  }

  /** Visits every ID in scope in DN order, without collecting them (unindexed searches). */
  public void visitScope(DN base, SearchScope scope, Dn2Id.IdVisitor visitor) throws LDAPException {
    scans.visitScope(base, scope, visitor);
  }

  /** {@link #visitScope(DN, SearchScope, Dn2Id.IdVisitor)} of a search base already read. */
  public void visitScope(SearchBase base, Dn2Id.IdVisitor visitor) throws LDAPException {
    scans.visitScope(base, visitor);
  }

  /**
   * Resumes a {@link #visitScope(SearchBase, Dn2Id.IdVisitor)} walk at the dn2id key a visitor was
   * given (inclusive), skipping the base entry: how a paged unindexed search continues where its
   * previous page stopped.
   */
  public void visitScopeFrom(SearchBase base, byte[] startAt, Dn2Id.IdVisitor visitor)
      throws LDAPException {
    scans.visitScopeFrom(base, startAt, visitor);
  }

  // ---------------------------------------------------------------- writes

  /**
   * Adds an entry. Refused with entryAlreadyExists (68), or noSuchObject (32) with the matchedDN
   * when the parent is missing.
   */
  public void add(Entry entry) throws LDAPException {
    EntryAdd.add(this, entry);
  }

  /** Deletes a leaf entry; notAllowedOnNonLeaf (66) if it has children. */
  public void delete(DN dn) throws LDAPException {
    EntryDelete.delete(this, dn);
  }

  /**
   * Deletes an entry and its whole subtree in one batch (the subtree delete control); returns the
   * deleted DNs, the base first. See {@link SubtreeDelete} for how it locks.
   */
  public List<DN> deleteSubtree(DN dn) throws LDAPException {
    return SubtreeDelete.delete(this, dn);
  }

  /**
   * Replaces an entry with what {@code change} computes from its current state, atomically: no
   * other write of the same DN runs in between. The new entry must keep the DN.
   */
  public Entry modify(DN dn, EntryChange change) throws LDAPException {
    return EntryModify.modify(this, dn, null, change);
  }

  /**
   * {@link #modify(DN, EntryChange)} where {@code change} reads and adds, of the attributes stored
   * apart (member, uniqueMember: {@link Id2Values#isApart}), only values equal to one of {@code
   * named}: it is given the entry with those of them it holds and one other value standing for the
   * rest (dropping that one, as a replace or a delete of the whole attribute does, drops them all),
   * so that adding or removing a member costs the same in a group of ten as in a group of a million
   * (see {@link ModifyView}). The entry it returns is likewise partial in those attributes: callers
   * that need the whole entry (read controls, assertions, change listeners) use the other form.
   */
  public Entry modify(DN dn, Collection<Attribute> named, EntryChange change) throws LDAPException {
    return EntryModify.modify(this, dn, named, change);
  }

  /**
   * True when a write must see every value of the attributes stored apart: an index of such an
   * attribute other than equality and presence (its keys of a removed value may come from a kept
   * one), or a VLV index whose filter or sort order names one.
   */
  boolean needsAllValuesApart() {
    for (AttributeIndex index : indexes.all()) {
      if (Id2Values.isApart(index.attribute())
          && index.indexType() != IndexType.EQUALITY
          && index.indexType() != IndexType.PRESENCE) {
        return true;
      }
    }
    for (VlvIndex index : vlvIndexes) {
      if (index.spec().sortOrder().stream().anyMatch(k -> Id2Values.isApart(k.attribute()))
          || namesApart(index.spec().filter())) {
        return true;
      }
    }
    return false;
  }

  private static boolean namesApart(Filter filter) {
    if (filter.getAttributeName() != null && Id2Values.isApart(filter.getAttributeName())) {
      return true;
    }
    if (filter.getNOTComponent() != null && namesApart(filter.getNOTComponent())) {
      return true;
    }
    for (Filter component : filter.getComponents()) {
      if (namesApart(component)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Moves {@code oldDn} and its whole subtree to {@code newDn} in one batch. {@code change}
   * computes the renamed entry itself (new DN, RDN attribute values); descendants keep their
   * attributes and get their DNs rewritten. Refused with noSuchObject, entryAlreadyExists, or
   * unwillingToPerform for a move under itself.
   */
  public void rename(DN oldDn, DN newDn, EntryChange change) throws LDAPException {
    SubtreeRename.rename(this, oldDn, newDn, change);
  }

  long requireId(DN dn) throws RocksDBException, LDAPException {
    long id = dn2id.get(dn);
    if (id < 0) {
      throw noSuchObject("The entry " + dn + " does not exist", dn);
    }
    return id;
  }

  /** noSuchObject with the matchedDN of {@code dn}. */
  LDAPException noSuchObject(String message, DN dn) throws LDAPException {
    DN matched = matchedDn(dn);
    return StorageException.notFound(message, matched);
  }

  /**
   * The indexes a write of entry {@code id} must update: all but those a rebuild has yet to reach.
   */
  List<AttributeIndex> maintainedIndexes(long id) {
    return indexes.maintainedFor(id);
  }

  WriteLocks locks() {
    return locks;
  }

  /** Commits a write: the index updates under their key stripes, then the batch at once. */
  void commit(WriteBatch batch, IndexUpdates updates) throws RocksDBException, LDAPException {
    int[] locked = updates.writeTo(batch, state, locks.indexLocks());
    try {
      backend.write(batch);
      updates.publishVlv();
    } finally {
      updates.releaseVlv();
      locks.indexLocks().unlock(locked);
    }
  }

  /** Records how entry {@code id} moves in each VLV index from {@code before} to {@code after}. */
  void stageVlv(IndexUpdates updates, long id, Entry before, Entry after) {
    for (VlvIndex index : vlvIndexes) {
      updates.changeVlv(index, index.keyOf(before, id), index.keyOf(after, id));
    }
  }

  // ---------------------------------------------------------------- VLV indexes

  public List<VlvIndex> vlvIndexes() {
    return vlvIndexes;
  }

  /** The VLV index with that name (not tree name), or null. */
  public VlvIndex vlvIndexNamed(String name) {
    for (VlvIndex index : vlvIndexes) {
      if (index.spec().name().equalsIgnoreCase(name)) {
        return index;
      }
    }
    return null;
  }

  /** A trusted VLV index serving this search, or null. */
  public VlvIndex vlvIndexFor(
      DN base, SearchScope scope, Filter filter, List<VlvIndex.RequestedKey> sortOrder) {
    for (VlvIndex index : vlvIndexes) {
      if (index.isTrusted() && index.serves(base, scope, filter, sortOrder)) {
        return index;
      }
    }
    return null;
  }

  /** Publishes a VLV index; trusted if the container is empty or it was built and trusted. */
  void addVlvIndex(VlvIndex index, boolean fresh) throws RocksDBException {
    Lock exclusive = locks.lockStructureExclusively();
    try {
      Boolean stored = state.isTrusted(index.name());
      boolean trusted = state.entryCount() == 0 || (!fresh && !Boolean.FALSE.equals(stored));
      if (!Boolean.valueOf(trusted).equals(stored)) {
        state.setTrusted(index.name(), trusted);
      }
      index.setTrustedFlag(trusted);
      List<VlvIndex> all = new ArrayList<>(vlvIndexes);
      all.add(index);
      vlvIndexes = List.copyOf(all);
    } finally {
      exclusive.unlock();
    }
  }

  /** Stops maintaining a VLV index; the caller drops its tree. */
  void removeVlvIndex(VlvIndex index) {
    Lock exclusive = locks.lockStructureExclusively();
    try {
      List<VlvIndex> all = new ArrayList<>(vlvIndexes);
      all.remove(index);
      vlvIndexes = List.copyOf(all);
    } finally {
      exclusive.unlock();
    }
  }

  /**
   * Rebuilds a VLV index from id2entry. Writes wait meanwhile (the structure lock is held
   * exclusively: one pass over the entries and a sort); searches do not use it until done.
   */
  public void rebuildVlvIndex(VlvIndex index) throws LDAPException {
    requireWritable("rebuilding indexes");
    Lock exclusive = locks.lockStructureExclusively();
    try {
      state.setTrusted(index.name(), false);
      index.setTrustedFlag(false);
      index.rebuild(id2entry, backend);
      state.setTrusted(index.name(), true);
      index.setTrustedFlag(true);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      exclusive.unlock();
    }
  }

  /** Checks a VLV index against the entries: the problems found, none when consistent. */
  public List<String> verifyVlvIndex(VlvIndex index) throws LDAPException {
    Lock exclusive = locks.lockStructureExclusively();
    try {
      return index.verify(index.expectedKeys(id2entry));
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      exclusive.unlock();
    }
  }
}
