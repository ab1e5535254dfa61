package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;

/** Replaces an entry in id2entry and moves its index keys by the difference of its values. */
final class EntryModify {
  private EntryModify() {}

  /**
   * Replaces an entry with what {@code change} computes from its current state, atomically: no
   * other write of the same DN runs in between. The new entry must keep the DN.
   */
  static Entry modify(EntryContainer container, DN dn, EntryContainer.EntryChange change)
      throws LDAPException {
    return LockedWrite.run(
        container,
        new DN[] {dn},
        write -> {
          long id = container.requireId(dn);
          Entry before = container.id2entry().get(id);
          Entry after = change.apply(before.duplicate());
          if (!after.getParsedDN().equals(dn)) {
            throw new IllegalArgumentException("modify must not change the DN; use rename");
          }
          container.id2entry().put(write.batch(), id, after);
          ValueChange.Diff diff = new ValueChange.Diff(before, after);
          for (AttributeIndex index : container.maintainedIndexes(id)) {
            write.updates().change(index, index.keyChange(diff.of(index.attribute())), id);
          }
          container.stageVlv(write.updates(), id, before, after);
          write.touch(id);
          return after;
        });
  }
}
