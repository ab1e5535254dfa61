package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.ArrayList;
import java.util.List;
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
    for (int attempt = 0; attempt < MAX_SUBTREE_ATTEMPTS; attempt++) {
      List<DN> toLock = subtreeDns(dn);
      if (!dn.equals(container.baseDn())) {
        toLock.add(dn.getParent());
      }
      List<DN> deleted =
          LockedWrite.run(container, toLock.toArray(DN[]::new), write -> deleteLocked(dn, write));
      if (deleted != null) {
        return deleted;
      }
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
  private List<DN> subtreeDns(DN dn) throws LDAPException {
    List<DN> dns = new ArrayList<>();
    dns.add(dn);
    try {
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
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
    return dns;
  }

  /**
   * Null, with nothing committed, when a descendant's lock is not held (it moved into the subtree
   * after the listing): the caller retries.
   */
  private List<DN> deleteLocked(DN dn, LockedWrite write) throws RocksDBException, LDAPException {
    WriteBatch batch = write.batch();
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
            if (!write.holdsLockOf(child.getParsedDN())) {
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
      write.abandon();
      return null;
    }
    Id2ChildrenCount childrenCount = container.id2childrenCount();
    for (int i = 0; i < ids.size(); i++) {
      long each = ids.get(i);
      Entry entry = entries.get(i);
      if (entry != null) {
        for (AttributeIndex index : container.maintainedIndexes(each)) {
          write.updates().remove(index, index.keysOf(entry), each);
        }
      }
      id2entry.delete(batch, each);
      childrenCount.delete(batch, each);
      write.touch(each);
    }
    dn2id.delete(batch, dn);
    if (!dn.equals(container.baseDn())) {
      long parentId = dn2id.get(dn.getParent());
      if (parentId >= 0) {
        childrenCount.add(batch, parentId, -1);
      }
    }
    container.state().addEntryCount(batch, -ids.size());
    return deleted;
  }
}
