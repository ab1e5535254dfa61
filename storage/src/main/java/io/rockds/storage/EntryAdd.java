package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.List;
import java.util.Map;
import org.rocksdb.WriteBatch;

/** Adds an entry: id2entry, dn2id, the parent's children count, the entry count and the indexes. */
final class EntryAdd {
  private EntryAdd() {}

  /**
   * Refused with entryAlreadyExists (68), or noSuchObject (32) with the matchedDN when the parent
   * is missing.
   */
  static void add(EntryContainer container, Entry entry) throws LDAPException {
    DN dn = entry.getParsedDN();
    DN parent = dn.getParent();
    boolean isBase = dn.equals(container.baseDn());
    Dn2Id dn2id = container.dn2id();
    LockedWrite.run(
        container,
        isBase ? new DN[] {dn} : new DN[] {dn, parent},
        write -> {
          if (dn2id.get(dn) >= 0) {
            throw StorageException.alreadyExists(dn);
          }
          long parentId = -1;
          if (!isBase) {
            parentId = dn2id.get(parent);
            if (parentId < 0) {
              throw container.noSuchObject("The parent entry " + parent + " does not exist", dn);
            }
          }
          long id = container.backend().nextId();
          WriteBatch batch = write.batch();
          container.id2entry().put(batch, id, entry);
          dn2id.put(batch, dn, id);
          if (parentId >= 0) {
            container.id2childrenCount().add(batch, parentId, 1);
          }
          container.state().addEntryCount(batch, 1);
          Map<String, List<Attribute>> attributes = AttributeIndex.attributesByType(entry);
          for (AttributeIndex index : container.maintainedIndexes(id)) {
            write.updates().add(index, index.keysOf(attributes), id);
          }
          container.stageVlv(write.updates(), id, null, entry);
          write.touch(id);
          return null;
        });
  }
}
