package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The trees of one base DN and the writes that keep them consistent. Every write takes the lock
 * stripes of the DNs it touches (so writes on one DN, and a child's add against its parent's
 * delete, are serialized), builds one {@link WriteBatch} across all trees, and commits it once.
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
  /** Immutable, replaced whole when an index is added, so readers need no lock. */
  private volatile Map<String, AttributeIndex> indexesByName;
  private volatile Map<String, List<AttributeIndex>> indexesByAttribute;
  /** How often a subtree delete re-lists a subtree that changed before its stripes were locked. */
  private static final int MAX_SUBTREE_ATTEMPTS = 20;
  private final KeyLocks dnLocks = new KeyLocks(1024);
  private final KeyLocks indexLocks = new KeyLocks(4096);
  /**
   * Every write holds the read side from ID allocation to commit; clearing an index for a rebuild
   * or changing its limit takes the write side, so no read-modify-write of an index record and no
   * blind over-limit merge can straddle that change.
   */
  private final ReentrantReadWriteLock indexStructure = new ReentrantReadWriteLock();
  private final java.util.concurrent.locks.ReentrantLock rebuilding = new java.util.concurrent.locks.ReentrantLock();

  EntryContainer(Backend backend, DN baseDn, Dn2Id dn2id, Id2Entry id2entry, Id2ChildrenCount childrenCount,
      BackendState state, Map<String, AttributeIndex> indexes) {
    this.backend = backend;
    this.baseDn = baseDn;
    this.dn2id = dn2id;
    this.id2entry = id2entry;
    this.childrenCount = childrenCount;
    this.state = state;
    publishIndexes(indexes);
  }

  private void publishIndexes(Map<String, AttributeIndex> indexes) {
    Map<String, List<AttributeIndex>> byAttribute = new LinkedHashMap<>();
    for (AttributeIndex index : indexes.values()) {
      byAttribute.computeIfAbsent(index.attribute().toLowerCase(Locale.ROOT), a -> new ArrayList<>()).add(index);
    }
    byAttribute.replaceAll((attribute, list) -> List.copyOf(list));
    indexesByAttribute = Collections.unmodifiableMap(byAttribute);
    indexesByName = Collections.unmodifiableMap(new LinkedHashMap<>(indexes));
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
    List<Tree> trees = new ArrayList<>(List.of(dn2id, id2entry, childrenCount, state));
    trees.addAll(indexesByName.values());
    return trees;
  }

  public Collection<AttributeIndex> indexes() {
    return Collections.unmodifiableCollection(indexesByName.values());
  }

  /** The index with that tree name (e.g. {@code sn.caseIgnoreMatch}), or null. */
  public AttributeIndex indexNamed(String name) {
    return indexesByName.get(name);
  }

  /** The index of {@code attribute} of that type, or null if there is none. */
  public AttributeIndex index(String attribute, IndexType type) {
    for (AttributeIndex index : indexesByAttribute.getOrDefault(attribute.toLowerCase(Locale.ROOT), List.of())) {
      if (index.indexType() == type) {
        return index;
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- index maintenance

  /** Adds a freshly created index: trusted only if the container is empty. */
  void addIndex(AttributeIndex index) throws RocksDBException {
    Lock exclusive = lockStructureExclusively();
    try {
      boolean trusted = state.entryCount() == 0;
      state.storeEntryLimit(index.name(), index.entryLimit().limit());
      state.setTrusted(index.name(), trusted);
      index.setTrustedFlag(trusted);
      Map<String, AttributeIndex> indexes = new LinkedHashMap<>(indexesByName);
      indexes.put(index.name(), index);
      publishIndexes(indexes);
    } finally {
      exclusive.unlock();
    }
  }

  /**
   * Changes an index's entry limit while the backend runs. Its records were built with the old
   * limit, so the index becomes untrusted (searches stop using it) until rebuilt; writes apply the
   * new limit from now on.
   */
  public void setIndexEntryLimit(String indexName, int limit) throws LDAPException {
    requireWritable("changing an index limit");
    AttributeIndex index = requireIndex(indexName);
    IndexEntryLimit newLimit = new IndexEntryLimit(limit);
    if (newLimit.equals(index.entryLimit())) {
      return;
    }
    Lock exclusive = lockStructureExclusively();
    try {
      state.setTrusted(indexName, false);
      index.setTrustedFlag(false);
      index.setEntryLimit(newLimit);
      state.storeEntryLimit(indexName, limit);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      exclusive.unlock();
    }
  }

  /**
   * Rebuilds these indexes from {@code id2entry} in one pass, while writes continue (see
   * {@link IndexBuild}); each is untrusted until done, then trusted with exact over-limit counts.
   * One rebuild at a time per container: a second one fails with busy.
   *
   * @param progress receives the number of entries indexed so far, after each batch
   */
  public void rebuildIndexes(Collection<AttributeIndex> indexes, java.util.function.LongConsumer progress)
      throws LDAPException {
    requireWritable("rebuilding indexes");
    for (AttributeIndex index : indexes) {
      requireIndex(index.name());
    }
    if (!rebuilding.tryLock()) {
      throw new LDAPException(ResultCode.BUSY, "another index rebuild of " + baseDn + " is running");
    }
    try {
      new IndexBuild(this, List.copyOf(indexes)).run(progress);
    } finally {
      rebuilding.unlock();
    }
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
    Lock exclusive = lockStructureExclusively();
    try {
      for (AttributeIndex index : indexesByName.values()) {
        state.setTrusted(index.name(), false);
        index.setTrustedFlag(false);
        index.clear();
        state.clearOverLimitCounts(index.name());
      }
      dn2id.clear();
      id2entry.clear();
      childrenCount.clear();
      state.setEntryCount(0);
      backend.invalidateAll();
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      exclusive.unlock();
    }
  }

  private void requireWritable(String what) throws LDAPException {
    if (backend.readOnly()) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "backend " + backend.id() + " is open read-only; "
          + what + " needs exclusive access: stop the server first, or run it inside the server");
    }
  }

  private AttributeIndex requireIndex(String name) throws LDAPException {
    AttributeIndex index = indexesByName.get(name);
    if (index == null) {
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "no index " + name + " in " + baseDn
          + " (expected one of: " + String.join(", ", indexesByName.keySet()) + ")");
    }
    return index;
  }

  // ---------------------------------------------------------------- reads

  /** The ID of {@code dn}, or -1. */
  public long idOf(DN dn) throws LDAPException {
    try {
      return dn2id.get(dn);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** The entry, or null. The returned entry is shared with the cache: never modify it. */
  public Entry get(DN dn) throws LDAPException {
    long id = idOf(dn);
    return id < 0 ? null : get(id);
  }

  /** The entry with this ID, or null. Shared with the cache: never modify it. */
  public Entry get(long id) throws LDAPException {
    return backend.cachedEntry(id, this::load);
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
      String dn = id2entry.dn(id);
      return dn == null ? null : new DN(dn);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * The entry with at least the attributes {@code projection} keeps, for testing a filter during
   * a scan: the cached entry if there is one, else a partial decode that bypasses the cache, so
   * that a scan neither decodes whole entries it rejects nor evicts the hot ones. Never send or
   * modify what this returns: read the entry with {@link #get(long)} once it matches.
   */
  public Entry peek(long id, AttributeProjection projection) throws LDAPException {
    StoredEntry cached = backend.cachedEntryIfPresent(id);
    if (cached != null) {
      return cached;
    }
    try {
      return id2entry.get(id, projection);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  private StoredEntry load(long id) {
    try {
      return id2entry.get(id);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The closest existing ancestor of {@code dn} within this container, or null: the matchedDN. */
  public DN matchedDn(DN dn) throws LDAPException {
    for (DN p = dn.getParent(); p != null && p.isDescendantOf(baseDn, true); p = p.getParent()) {
      if (idOf(p) >= 0) {
        return p;
      }
    }
    return null;
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
   * The IDs in scope of {@code base}, in DN order, or an undefined set when there are more than
   * {@code maxIds} (0 = no bound). An absent base gives the empty set.
   */
  public IdSet scopeIds(DN base, SearchScope scope, int maxIds) throws LDAPException {
    try {
      long baseId = dn2id.get(base);
      if (baseId < 0) {
        return IdSet.empty();
      }
      IdSet.Builder ids = new IdSet.Builder();
      if (scope == SearchScope.BASE || scope == SearchScope.SUB) {
        ids.add(baseId);
      }
      if (scope == SearchScope.BASE) {
        return ids.build();
      }
      boolean[] overflow = {false};
      dn2id.visitDescendants(base, scope == SearchScope.ONE, (key, id) -> {
        ids.add(id);
        if (maxIds > 0 && ids.size() > maxIds) {
          overflow[0] = true;
          return false;
        }
        return true;
      });
      return overflow[0] ? IdSet.undefined(IdSet.Undefined.NOT_INDEXED) : ids.build();
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** Visits every ID in scope in DN order, without collecting them (unindexed searches). */
  public void visitScope(DN base, SearchScope scope, Dn2Id.IdVisitor visitor) throws LDAPException {
    try {
      long baseId = dn2id.get(base);
      if (baseId < 0) {
        return;
      }
      if ((scope == SearchScope.BASE || scope == SearchScope.SUB) && !visitor.visit(null, baseId)) {
        return;
      }
      if (scope != SearchScope.BASE) {
        dn2id.visitDescendants(base, scope == SearchScope.ONE, visitor);
      }
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * Resumes a {@link #visitScope(DN, SearchScope, Dn2Id.IdVisitor)} walk at the dn2id key a
   * visitor was given (inclusive), skipping the base entry: how a paged unindexed search
   * continues where its previous page stopped.
   */
  public void visitScopeFrom(DN base, SearchScope scope, byte[] startAt, Dn2Id.IdVisitor visitor)
      throws LDAPException {
    if (scope == SearchScope.BASE) {
      return;
    }
    try {
      dn2id.visitDescendants(base, scope == SearchScope.ONE, startAt, visitor);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  // ---------------------------------------------------------------- writes

  /**
   * Adds an entry. Refused with entryAlreadyExists (68), or noSuchObject (32) with the matchedDN
   * when the parent is missing.
   */
  public void add(Entry entry) throws LDAPException {
    DN dn = entry.getParsedDN();
    DN parent = dn.getParent();
    boolean isBase = dn.equals(baseDn);
    int[] locked = dnLocks.lock(isBase ? stripes(dn) : stripes(dn, parent));
    Lock structure = lockStructure();
    try (WriteBatch batch = new WriteBatch()) {
      if (dn2id.get(dn) >= 0) {
        throw new LDAPException(ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + dn + " already exists");
      }
      long parentId = -1;
      if (!isBase) {
        parentId = dn2id.get(parent);
        if (parentId < 0) {
          throw noSuchObject("The parent entry " + parent + " does not exist", dn);
        }
      }
      long id = backend.nextId();
      id2entry.put(batch, id, entry);
      dn2id.put(batch, dn, id);
      if (parentId >= 0) {
        childrenCount.add(batch, parentId, 1);
      }
      state.addEntryCount(batch, 1);
      IndexUpdates updates = new IndexUpdates();
      Map<String, List<Attribute>> attributes = AttributeIndex.attributesByType(entry);
      for (AttributeIndex index : maintainedIndexes(id)) {
        updates.add(index, index.keysOf(attributes), id);
      }
      commit(batch, updates);
      backend.invalidate(id);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      structure.unlock();
      dnLocks.unlock(locked);
    }
  }

  /** Deletes a leaf entry; notAllowedOnNonLeaf (66) if it has children. */
  public void delete(DN dn) throws LDAPException {
    int[] locked = dnLocks.lock(stripes(dn));
    Lock structure = lockStructure();
    try (WriteBatch batch = new WriteBatch()) {
      long id = requireId(dn);
      if (childrenCount.get(id) > 0) {
        throw new LDAPException(ResultCode.NOT_ALLOWED_ON_NONLEAF,
            "The entry " + dn + " cannot be deleted because it has subordinate entries");
      }
      Entry entry = id2entry.get(id);
      id2entry.delete(batch, id);
      dn2id.delete(batch, dn);
      childrenCount.delete(batch, id);
      if (!dn.equals(baseDn)) {
        long parentId = dn2id.get(dn.getParent());
        if (parentId >= 0) {
          childrenCount.add(batch, parentId, -1);
        }
      }
      state.addEntryCount(batch, -1);
      IndexUpdates updates = new IndexUpdates();
      for (AttributeIndex index : maintainedIndexes(id)) {
        updates.remove(index, index.keysOf(entry), id);
      }
      commit(batch, updates);
      backend.invalidate(id);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      structure.unlock();
      dnLocks.unlock(locked);
    }
  }

  /**
   * Deletes an entry and its whole subtree in one batch (the subtree delete control); returns the
   * deleted DNs, the base first. It holds the DN lock stripes of every deleted entry and of the
   * base's parent: the subtree is listed without locks, its stripes are locked at once, and the
   * listing is checked under them (retried when an entry moved into the subtree meanwhile). So no
   * write of a deleted entry, and no index rebuild reading one, straddles the delete.
   */
  public List<DN> deleteSubtree(DN dn) throws LDAPException {
    try {
      for (int attempt = 0; attempt < MAX_SUBTREE_ATTEMPTS; attempt++) {
        List<DN> toLock = subtreeDns(dn);
        if (!dn.equals(baseDn)) {
          toLock.add(dn.getParent());
        }
        int[] locked = dnLocks.lock(stripes(toLock.toArray(DN[]::new)));
        Lock structure = lockStructure();
        try {
          List<DN> deleted = deleteSubtreeLocked(dn, locked);
          if (deleted != null) {
            return deleted;
          }
        } finally {
          structure.unlock();
          dnLocks.unlock(locked);
        }
      }
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
    throw new LDAPException(ResultCode.BUSY, "the subtree of " + dn + " kept changing during "
        + MAX_SUBTREE_ATTEMPTS + " attempts to delete it; retry later");
  }

  /** {@code dn} and the DNs of its descendants, read without locks. */
  private List<DN> subtreeDns(DN dn) throws RocksDBException, LDAPException {
    List<DN> dns = new ArrayList<>();
    dns.add(dn);
    dn2id.visitDescendants(dn, false, (key, childId) -> {
      Entry child = id2entry.get(childId);
      if (child != null) {
        dns.add(child.getParsedDN());
      }
      return true;
    });
    return dns;
  }

  /** Null when a descendant's stripe is not among {@code locked}: the caller retries. */
  private List<DN> deleteSubtreeLocked(DN dn, int[] locked) throws RocksDBException, LDAPException {
    try (WriteBatch batch = new WriteBatch()) {
      long id = requireId(dn);
      List<DN> deleted = new ArrayList<>();
      List<Entry> entries = new ArrayList<>();
      List<Long> ids = new ArrayList<>();
      deleted.add(dn);
      ids.add(id);
      entries.add(id2entry.get(id));
      boolean[] unlocked = {false};
      dn2id.visitDescendants(dn, false, (key, childId) -> {
        Entry child = id2entry.get(childId);
        if (child != null) {
          if (java.util.Arrays.binarySearch(locked, stripes(child.getParsedDN())[0]) < 0) {
            unlocked[0] = true;
            return false;
          }
          deleted.add(child.getParsedDN());
        }
        ids.add(childId);
        entries.add(child);
        batch.delete(dn2id.handle(), key);
        return true;
      });
      if (unlocked[0]) {
        return null;
      }
      IndexUpdates updates = new IndexUpdates();
      for (int i = 0; i < ids.size(); i++) {
        long each = ids.get(i);
        Entry entry = entries.get(i);
        if (entry != null) {
          for (AttributeIndex index : maintainedIndexes(each)) {
            updates.remove(index, index.keysOf(entry), each);
          }
        }
        id2entry.delete(batch, each);
        childrenCount.delete(batch, each);
      }
      dn2id.delete(batch, dn);
      if (!dn.equals(baseDn)) {
        long parentId = dn2id.get(dn.getParent());
        if (parentId >= 0) {
          childrenCount.add(batch, parentId, -1);
        }
      }
      state.addEntryCount(batch, -ids.size());
      commit(batch, updates);
      for (long each : ids) {
        backend.invalidate(each);
      }
      return deleted;
    }
  }

  /**
   * Replaces an entry with what {@code change} computes from its current state, atomically: no
   * other write of the same DN runs in between. The new entry must keep the DN.
   */
  public Entry modify(DN dn, EntryChange change) throws LDAPException {
    int[] locked = dnLocks.lock(stripes(dn));
    Lock structure = lockStructure();
    try (WriteBatch batch = new WriteBatch()) {
      long id = requireId(dn);
      Entry before = id2entry.get(id);
      Entry after = change.apply(before.duplicate());
      if (!after.getParsedDN().equals(dn)) {
        throw new IllegalArgumentException("modify must not change the DN; use rename");
      }
      id2entry.put(batch, id, after);
      IndexUpdates updates = new IndexUpdates();
      ValueChange.Diff diff = new ValueChange.Diff(before, after);
      for (AttributeIndex index : maintainedIndexes(id)) {
        updates.change(index, index.keyChange(diff.of(index.attribute())), id);
      }
      commit(batch, updates);
      backend.invalidate(id);
      return after;
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      structure.unlock();
      dnLocks.unlock(locked);
    }
  }

  /**
   * Moves {@code oldDn} and its whole subtree to {@code newDn} in one batch. {@code change}
   * computes the renamed entry itself (new DN, RDN attribute values); descendants keep their
   * attributes and get their DNs rewritten. Refused with noSuchObject, entryAlreadyExists, or
   * unwillingToPerform for a move under itself.
   */
  public void rename(DN oldDn, DN newDn, EntryChange change) throws LDAPException {
    // A new DN equal to the old one under distinguishedNameMatch changes only the case or spacing
    // of the RDN: same dn2id key, stored DN and RDN values rewritten (RFC 4511 section 4.9).
    boolean sameName = newDn.equals(oldDn);
    if (!sameName && newDn.isDescendantOf(oldDn, true)) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM,
          "The entry " + oldDn + " cannot be moved below itself or one of its subordinates");
    }
    DN oldParent = oldDn.getParent();
    DN newParent = newDn.getParent();
    int[] locked = dnLocks.lock(stripes(oldDn, newDn, oldParent, newParent));
    Lock structure = lockStructure();
    try (WriteBatch batch = new WriteBatch()) {
      long id = requireId(oldDn);
      if (!sameName && dn2id.get(newDn) >= 0) {
        throw new LDAPException(ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + newDn + " already exists");
      }
      boolean moved = !newParent.equals(oldParent);
      long newParentId = dn2id.get(newParent);
      if (moved && newParentId < 0) {
        throw noSuchObject("The new superior entry " + newParent + " does not exist", newDn);
      }
      Entry before = id2entry.get(id);
      Entry after = change.apply(before.duplicate());
      List<Long> touched = new ArrayList<>();
      touched.add(id);
      id2entry.put(batch, id, after);
      dn2id.delete(batch, oldDn);
      dn2id.put(batch, newDn, id);
      IndexUpdates updates = new IndexUpdates();
      ValueChange.Diff diff = new ValueChange.Diff(before, after);
      for (AttributeIndex index : maintainedIndexes(id)) {
        updates.change(index, index.keyChange(diff.of(index.attribute())), id);
      }
      int oldDepth = oldDn.getRDNs().length;
      dn2id.visitDescendants(oldDn, false, (key, childId) -> {
        Entry child = id2entry.get(childId);
        DN childDn = child.getParsedDN();
        RDN[] rdns = childDn.getRDNs();
        RDN[] relative = java.util.Arrays.copyOf(rdns, rdns.length - oldDepth);
        DN movedDn = new DN(concat(relative, newDn.getRDNs()));
        Entry movedEntry = child.duplicate();
        movedEntry.setDN(movedDn);
        batch.delete(dn2id.handle(), key);
        dn2id.put(batch, movedDn, childId);
        id2entry.put(batch, childId, movedEntry);
        touched.add(childId);
        return true;
      });
      if (moved) {
        long oldParentId = dn2id.get(oldParent);
        if (oldParentId >= 0) {
          childrenCount.add(batch, oldParentId, -1);
        }
        childrenCount.add(batch, newParentId, 1);
      }
      commit(batch, updates);
      for (long t : touched) {
        backend.invalidate(t);
      }
    } catch (LDAPException e) {
      throw e;
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      structure.unlock();
      dnLocks.unlock(locked);
    }
  }

  private static RDN[] concat(RDN[] a, RDN[] b) {
    RDN[] r = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  private long requireId(DN dn) throws RocksDBException, LDAPException {
    long id = dn2id.get(dn);
    if (id < 0) {
      throw noSuchObject("The entry " + dn + " does not exist", dn);
    }
    return id;
  }

  private LDAPException noSuchObject(String message, DN dn) throws LDAPException {
    DN matched = matchedDn(dn);
    return new LDAPException(ResultCode.NO_SUCH_OBJECT, message, matched == null ? null : matched.toString(), null);
  }

  /** The indexes a write of entry {@code id} must update: all but those a rebuild has yet to reach. */
  private List<AttributeIndex> maintainedIndexes(long id) {
    List<AttributeIndex> maintained = new ArrayList<>(indexesByName.size());
    for (AttributeIndex index : indexesByName.values()) {
      if (index.isMaintainedFor(id)) {
        maintained.add(index);
      }
    }
    return maintained;
  }

  Lock lockStructure() {
    Lock lock = indexStructure.readLock();
    lock.lock();
    return lock;
  }

  Lock lockStructureExclusively() {
    Lock lock = indexStructure.writeLock();
    lock.lock();
    return lock;
  }

  KeyLocks dnLocks() {
    return dnLocks;
  }

  KeyLocks indexLocks() {
    return indexLocks;
  }

  int[] stripes(DN... dns) {
    int[] s = new int[dns.length];
    for (int i = 0; i < dns.length; i++) {
      s[i] = dnLocks.stripeOf(java.util.Arrays.hashCode(DnKeys.key(dns[i])));
    }
    return s;
  }

  private void commit(WriteBatch batch, IndexUpdates updates) throws RocksDBException, LDAPException {
    int[] locked = updates.writeTo(batch, state, indexLocks);
    try {
      backend.write(batch);
    } finally {
      indexLocks.unlock(locked);
    }
  }
}
