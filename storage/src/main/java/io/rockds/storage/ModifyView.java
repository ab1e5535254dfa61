package io.rockds.storage;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.util.Arrays;
import java.util.Map;

/**
 * What a modify of an entry with attributes stored apart sees of it ({@link Id2Entry#view}): every
 * attribute kept in the record, and of each attribute stored apart the values the modifications
 * name that it holds, plus one <em>stand-in</em>: a stored value none of them names, present
 * whenever the attribute has values the view leaves out.
 *
 * <p>Why this is exact: the modify's own rules (RFC 4511 section 4.6, applied by the caller) only
 * ever look at the values they name: an add of a held value is attributeOrValueExists, a delete of
 * a missing one noSuchAttribute, and a delete leaving no value removes the attribute, which the
 * stand-in prevents exactly when values remain. Replacing or deleting the whole attribute drops the
 * stand-in, which stands for the values the view left out: {@link #before} then reads them, so that
 * the change and its index updates remove them too. Adding one member to a group of a million reads
 * two values and writes one.
 */
final class ModifyView {
  private final StoredEntry entry;
  private final Map<Integer, byte[]> standIns;
  private final Id2Entry id2entry;

  /**
   * @param standIns the value key of each attribute's stand-in, by description id
   */
  ModifyView(StoredEntry entry, Map<Integer, byte[]> standIns, Id2Entry id2entry) {
    this.entry = entry;
    this.standIns = standIns;
    this.id2entry = id2entry;
  }

  /** The entry as the modify sees it. */
  StoredEntry entry() {
    return entry;
  }

  /**
   * The entry before the change as far as {@code after} needs it to be compared with: the view,
   * where an attribute whose stand-in {@code after} dropped holds all its stored values.
   */
  Entry before(Entry after) {
    Entry before = null;
    Id2Values values = id2entry.values();
    for (StoredEntry.Apart a : entry.apart()) {
      byte[] standIn = standIns.get(a.descriptionId());
      if (standIn == null || holds(after.getAttribute(a.description()), a, standIn, values)) {
        continue;
      }
      if (before == null) {
        before = entry.duplicate();
      }
      before.setAttribute(
          new Attribute(a.description(), values.values(entry.stored().id(), a, null)));
    }
    return before == null ? entry : before;
  }

  private static boolean holds(
      Attribute attribute, StoredEntry.Apart a, byte[] standIn, Id2Values values) {
    if (attribute == null) {
      return false;
    }
    for (ASN1OctetString value : attribute.getRawValues()) {
      if (Arrays.equals(values.valueKey(a.description(), value.getValue()), standIn)) {
        return true;
      }
    }
    return false;
  }
}
