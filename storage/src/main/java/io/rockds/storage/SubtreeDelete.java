package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.Lock;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Deletes an entry and its whole subtree in one batch (the subtree delete control). It holds the DN
 * lock stripes of every deleted entry and of the base's parent: the subtree is listed without
 * locks, its stripes are locked at once, and the listing is checked under them (retried when an
 * entry moved into the subtree meanwhile). So no write of a deleted entry, and no index rebuild
 * reading one, straddles the delete.
 */
final class SubtreeDelete {
  /** How often a subtree delete re-lists a subtree that changed before its stripes were locked. */
  private static final int MAX_SUBTREE_ATTEMPTS = 20;

  private final EntryContainer container;
  private final Dn2Id dn2id;
  private final Id2Entry id2entry;

  private SubtreeDelete(EntryContainer container) {
    this.container = container;
    this.dn2id = container.dn2id();
    this.id2entry = container.id2entry();
  }

  /** Returns the deleted DNs, the base first. */
  static List<DN> delete(EntryContainer container, DN dn) throws LDAPException {
    return new SubtreeDelete(container).delete(dn);
  }

  private List<DN> delete(DN dn) throws LDAPException {
    WriteLocks locks = container.locks();
    try {
      for (int attempt = 0; attempt < MAX_SUBTREE_ATTEMPTS; attempt++) {
        List<DN> toLock = subtreeDns(dn);
        if (!dn.equals(container.baseDn())) {
          toLock.add(dn.getParent());
        }
        int[] locked = locks.dnLocks().lock(locks.stripes(toLock.toArray(DN[]::new)));
        Lock structure = locks.lockStructure();
        try {
          List<DN> deleted = deleteLocked(dn, locked);
          if (deleted != null) {
            return deleted;
          }
        } finally {
          structure.unlock();
          locks.dnLocks().unlock(locked);
        }
      }
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
    throw new LDAPException(
        ResultCode.BUSY,
        "the subtree of "
            + dn
            + " kept changing during "
            + MAX_SUBTREE_ATTEMPTS
            + " attempts to delete it; retry later");
  }

  /** {@code dn} and the DNs of its descendants, read without locks. */
  private List<DN> subtreeDns(DN dn) throws RocksDBException, LDAPException {
    List<DN> dns = new ArrayList<>();
    dns.add(dn);
    dn2id.visitDescendants(
        dn,
        false,
        (key, childId) -> {
          Entry child = id2entry.get(childId);
          if (child != null) {
            dns.add(child.getParsedDN());
          }
          return true;
        });
    return dns;
  }

  /** Null when a descendant's stripe is not among {@code locked}: the caller retries. */
  private List<DN> deleteLocked(DN dn, int[] locked) throws RocksDBException, LDAPException {
    try (WriteBatch batch = new WriteBatch()) {
      long id = container.requireId(dn);
      List<DN> deleted = new ArrayList<>();
      List<Entry> entries = new ArrayList<>();
      List<Long> ids = new ArrayList<>();
      deleted.add(dn);
      ids.add(id);
      entries.add(id2entry.get(id));
      boolean[] unlocked = {false};
      dn2id.visitDescendants(
          dn,
          false,
          (key, childId) -> {
            Entry child = id2entry.get(childId);
            if (child != null) {
              if (Arrays.binarySearch(locked, container.locks().stripes(child.getParsedDN())[0])
                  < 0) {
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
      Id2ChildrenCount childrenCount = container.id2childrenCount();
      for (int i = 0; i < ids.size(); i++) {
        long each = ids.get(i);
        Entry entry = entries.get(i);
        if (entry != null) {
          for (AttributeIndex index : container.maintainedIndexes(each)) {
            updates.remove(index, index.keysOf(entry), each);
          }
        }
        id2entry.delete(batch, each);
        childrenCount.delete(batch, each);
      }
      dn2id.delete(batch, dn);
      if (!dn.equals(container.baseDn())) {
        long parentId = dn2id.get(dn.getParent());
        if (parentId >= 0) {
          childrenCount.add(batch, parentId, -1);
        }
      }
      container.state().addEntryCount(batch, -ids.size());
      container.commit(batch, updates);
      for (long each : ids) {
        container.backend().invalidate(each);
      }
      return deleted;
    }
  }
}
