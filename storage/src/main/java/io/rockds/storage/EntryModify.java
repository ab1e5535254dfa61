package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.Collection;

/**
 * Replaces an entry in id2entry (and its values apart in id2values) and moves its index keys by the
 * difference of its values.
 */
final class EntryModify {
  private EntryModify() {}

  /**
   * Replaces an entry with what {@code change} computes from its current state, atomically: no
   * other write of the same DN runs in between. The new entry must keep the DN.
   *
   * @param named null: {@code change} sees the whole entry. Else the values {@code change} reads or
   *     adds of the attributes stored apart: it sees a {@link ModifyView}, so that adding one value
   *     to a million costs a few point reads and one write. The whole entry is read anyway when an
   *     index or VLV index needs the other values ({@link EntryContainer#needsAllValuesApart}).
   */
  static Entry modify(
      EntryContainer container,
      DN dn,
      Collection<Attribute> named,
      EntryContainer.EntryChange change)
      throws LDAPException {
    return LockedWrite.run(
        container,
        new DN[] {dn},
        write -> {
          long id = container.requireId(dn);
          Id2Entry id2entry = container.id2entry();
          ModifyView view =
              named == null || container.needsAllValuesApart() ? null : id2entry.view(id, named);
          StoredEntry stored = view != null ? view.entry() : id2entry.get(id);
          Entry after = change.apply(stored.duplicate());
          if (!after.getParsedDN().equals(dn)) {
            throw new IllegalArgumentException("modify must not change the DN; use rename");
          }
          Entry before = view != null ? view.before(after) : stored;
          id2entry.update(write.batch(), id, stored, before, after);
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
