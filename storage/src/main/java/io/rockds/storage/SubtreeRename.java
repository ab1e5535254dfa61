package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.Arrays;
import org.rocksdb.WriteBatch;

/**
 * Moves an entry and its whole subtree to a new DN in one batch: dn2id keys and the DNs stored in
 * id2entry rewritten, the children counts of the old and new parents moved.
 */
final class SubtreeRename {
  private SubtreeRename() {}

  /**
   * {@code change} computes the renamed entry itself (new DN, RDN attribute values); descendants
   * keep their attributes and get their DNs rewritten. Refused with noSuchObject,
   * entryAlreadyExists, or unwillingToPerform for a move under itself.
   */
  static void rename(
      EntryContainer container, DN oldDn, DN newDn, EntryContainer.EntryChange change)
      throws LDAPException {
    // A new DN equal to the old one under distinguishedNameMatch changes only the case or spacing
    // of the RDN: same dn2id key, stored DN and RDN values rewritten (RFC 4511 section 4.9).
    boolean sameName = newDn.equals(oldDn);
    if (!sameName && newDn.isDescendantOf(oldDn, true)) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "The entry " + oldDn + " cannot be moved below itself or one of its subordinates");
    }
    DN oldParent = oldDn.getParent();
    DN newParent = newDn.getParent();
    Dn2Id dn2id = container.dn2id();
    Id2Entry id2entry = container.id2entry();
    LockedWrite.run(
        container,
        new DN[] {oldDn, newDn, oldParent, newParent},
        write -> {
          long id = container.requireId(oldDn);
          if (!sameName && dn2id.get(newDn) >= 0) {
            throw StorageException.alreadyExists(newDn);
          }
          boolean moved = !newParent.equals(oldParent);
          long newParentId = dn2id.get(newParent);
          if (moved && newParentId < 0) {
            throw container.noSuchObject(
                "The new superior entry " + newParent + " does not exist", newDn);
          }
          WriteBatch batch = write.batch();
          StoredEntry before = id2entry.get(id);
          Entry after = change.apply(before.duplicate());
          write.touch(id);
          id2entry.update(batch, id, before, before, after);
          dn2id.delete(batch, oldDn);
          dn2id.put(batch, newDn, id);
          ValueChange.Diff diff = new ValueChange.Diff(before, after);
          for (AttributeIndex index : container.maintainedIndexes(id)) {
            write.updates().change(index, index.keyChange(diff.of(index.attribute())), id);
          }
          container.stageVlv(write.updates(), id, before, after);
          int oldDepth = oldDn.getRDNs().length;
          // A moved descendant keeps its values apart (keyed by ID): only its record is rewritten,
          // unless a VLV index must see them.
          boolean whole = container.needsAllValuesApart();
          dn2id.visitDescendants(
              oldDn,
              false,
              (key, childId) -> {
                StoredEntry child =
                    whole
                        ? id2entry.get(childId)
                        : id2entry.withoutValuesApart(childId, ReadFrom.ANYWHERE);
                RDN[] rdns = child.getParsedDN().getRDNs();
                RDN[] relative = Arrays.copyOf(rdns, rdns.length - oldDepth);
                DN movedDn = new DN(concat(relative, newDn.getRDNs()));
                Entry movedEntry = child.duplicate();
                movedEntry.setDN(movedDn);
                batch.delete(dn2id.handle(), key);
                dn2id.put(batch, movedDn, childId);
                id2entry.update(batch, childId, child, child, movedEntry);
                container.stageVlv(write.updates(), childId, child, movedEntry);
                write.touch(childId);
                return true;
              });
          if (moved) {
            long oldParentId = dn2id.get(oldParent);
            if (oldParentId >= 0) {
              container.id2childrenCount().add(batch, oldParentId, -1);
            }
            container.id2childrenCount().add(batch, newParentId, 1);
          }
          return null;
        });
  }

  private static RDN[] concat(RDN[] a, RDN[] b) {
    RDN[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
