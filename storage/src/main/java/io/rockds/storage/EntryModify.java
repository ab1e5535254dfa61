package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.concurrent.locks.Lock;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/** Replaces an entry in id2entry and moves its index keys by the difference of its values. */
final class EntryModify {
  private EntryModify() {}

  /**
   * Replaces an entry with what {@code change} computes from its current state, atomically: no
   * other write of the same DN runs in between. The new entry must keep the DN.
   */
  static Entry modify(EntryContainer container, DN dn, EntryContainer.EntryChange change)
      throws LDAPException {
    WriteLocks locks = container.locks();
    int[] locked = locks.dnLocks().lock(locks.stripes(dn));
    Lock structure = locks.lockStructure();
    try (WriteBatch batch = new WriteBatch()) {
      long id = container.requireId(dn);
      Entry before = container.id2entry().get(id);
      Entry after = change.apply(before.duplicate());
      if (!after.getParsedDN().equals(dn)) {
        throw new IllegalArgumentException("modify must not change the DN; use rename");
      }
      container.id2entry().put(batch, id, after);
      IndexUpdates updates = new IndexUpdates();
      ValueChange.Diff diff = new ValueChange.Diff(before, after);
      for (AttributeIndex index : container.maintainedIndexes(id)) {
        updates.change(index, index.keyChange(diff.of(index.attribute())), id);
      }
      container.commit(batch, updates);
      container.backend().invalidate(id);
      return after;
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      structure.unlock();
      locks.dnLocks().unlock(locked);
    }
  }
}
