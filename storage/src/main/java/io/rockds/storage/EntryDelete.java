package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import org.rocksdb.WriteBatch;

/** Deletes a leaf entry from every tree. */
final class EntryDelete {
  private EntryDelete() {}

  /** Refused with notAllowedOnNonLeaf (66) if the entry has children. */
  static void delete(EntryContainer container, DN dn) throws LDAPException {
    Id2ChildrenCount childrenCount = container.id2childrenCount();
    LockedWrite.run(
        container,
        new DN[] {dn},
        write -> {
          long id = container.requireId(dn);
          if (childrenCount.get(id) > 0) {
            throw new LDAPException(
                ResultCode.NOT_ALLOWED_ON_NONLEAF,
                "The entry " + dn + " cannot be deleted because it has subordinate entries");
          }
          Entry entry = container.id2entry().get(id);
          WriteBatch batch = write.batch();
          container.id2entry().delete(batch, id);
          container.dn2id().delete(batch, dn);
          childrenCount.delete(batch, id);
          if (!dn.equals(container.baseDn())) {
            long parentId = container.dn2id().get(dn.getParent());
            if (parentId >= 0) {
              childrenCount.add(batch, parentId, -1);
            }
          }
          container.state().addEntryCount(batch, -1);
          for (AttributeIndex index : container.maintainedIndexes(id)) {
            write.updates().remove(index, index.keysOf(entry), id);
          }
          container.stageVlv(write.updates(), id, entry, null);
          write.touch(id);
          return null;
        });
  }
}
