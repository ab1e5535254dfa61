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
      List<DN> toLock = new ArrayList<>();
      toLock.add(dn);
      try {
        for (Descendant d : descendants(dn)) {
          if (d.entry() != null) {
            toLock.add(d.entry().getParsedDN());
          }
        }
      } catch (RocksDBException e) {
        throw StorageErrors.wrap(e);
      }
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

  /** A strict descendant: its dn2id key, its ID, and its entry (null if id2entry lacks it). */
  private record Descendant(byte[] key, long id, Entry entry) {}

  private List<Descendant> descendants(DN dn) throws RocksDBException, LDAPException {
    List<Descendant> all = new ArrayList<>();
    dn2id.visitDescendants(
        dn,
        false,
        (key, childId) -> {
          all.add(new Descendant(key, childId, id2entry.get(childId)));
          return true;
        });
    return all;
  }

  /**
   * The subtree listed again under the locks taken from the listing without them. Null, with
   * nothing committed, when a descendant's lock is not held (it moved into the subtree meanwhile):
   * the caller retries.
   */
  private List<DN> deleteLocked(DN dn, LockedWrite write) throws RocksDBException, LDAPException {
    WriteBatch batch = write.batch();
    long id = container.requireId(dn);
    List<Descendant> subtree = new ArrayList<>();
    subtree.add(new Descendant(null, id, id2entry.get(id)));
    subtree.addAll(descendants(dn));
    List<DN> deleted = new ArrayList<>();
    deleted.add(dn);
    for (Descendant d : subtree.subList(1, subtree.size())) {
      if (d.entry() != null) {
        if (!write.holdsLockOf(d.entry().getParsedDN())) {
          write.abandon();
          return null;
        }
        deleted.add(d.entry().getParsedDN());
      }
      batch.delete(dn2id.handle(), d.key());
    }
    Id2ChildrenCount childrenCount = container.id2childrenCount();
    for (Descendant d : subtree) {
      if (d.entry() != null) {
        for (AttributeIndex index : container.maintainedIndexes(d.id())) {
          write.updates().remove(index, index.keysOf(d.entry()), d.id());
        }
        container.stageVlv(write.updates(), d.id(), d.entry(), null);
      }
      id2entry.delete(batch, d.id());
      childrenCount.delete(batch, d.id());
      write.touch(d.id());
    }
    dn2id.delete(batch, dn);
    if (!dn.equals(container.baseDn())) {
      long parentId = dn2id.get(dn.getParent());
      if (parentId >= 0) {
        childrenCount.add(batch, parentId, -1);
      }
    }
    container.state().addEntryCount(batch, -subtree.size());
    return deleted;
  }
}
