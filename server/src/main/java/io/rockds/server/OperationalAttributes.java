package io.rockds.server;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.util.StaticUtils;
import io.rockds.storage.EntryContainer;
import java.util.Date;
import java.util.UUID;

/**
 * Operational attributes: the stored ones set on every write (entryUUID, createTimestamp,
 * creatorsName, modifyTimestamp, modifiersName) and the virtual ones computed when a search asks
 * for them (entryDN, hasSubordinates, numSubordinates, subschemaSubentry).
 */
public final class OperationalAttributes {

  private OperationalAttributes() {}

  /** Stamps a new entry. */
  public static void onAdd(Entry entry, Identity by) {
    String now = StaticUtils.encodeGeneralizedTime(new Date());
    entry.setAttribute("entryUUID", UUID.randomUUID().toString());
    entry.setAttribute("createTimestamp", now);
    entry.setAttribute("creatorsName", by.dn().toString());
    entry.setAttribute("modifyTimestamp", now);
    entry.setAttribute("modifiersName", by.dn().toString());
  }

  /** Stamps a modified entry. */
  public static void onModify(Entry entry, Identity by) {
    entry.setAttribute("modifyTimestamp", StaticUtils.encodeGeneralizedTime(new Date()));
    entry.setAttribute("modifiersName", by.dn().toString());
  }

  /** A copy of {@code entry} with the virtual attributes the selection wants. */
  static Entry withVirtual(Entry entry, EntryContainer container, long id, AttributeSelection selection)
      throws LDAPException {
    boolean all = selection.wantsAllOperational();
    boolean dn = all || selection.isNamed("entryDN");
    boolean has = all || selection.isNamed("hasSubordinates");
    boolean num = all || selection.isNamed("numSubordinates");
    boolean schema = all || selection.isNamed("subschemaSubentry");
    if (!dn && !has && !num && !schema) {
      return entry;
    }
    Entry copy = entry.duplicate();
    if (dn) {
      copy.setAttribute("entryDN", entry.getDN());
    }
    if (has || num) {
      long children = container.childCount(id);
      if (has) {
        copy.setAttribute("hasSubordinates", children > 0 ? "TRUE" : "FALSE");
      }
      if (num) {
        copy.setAttribute("numSubordinates", Long.toString(children));
      }
    }
    if (schema) {
      copy.setAttribute("subschemaSubentry", "cn=schema");
    }
    return copy;
  }
}
