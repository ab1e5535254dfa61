package io.rockds.server;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.ObjectClassDefinition;
import com.unboundid.util.StaticUtils;
import java.util.Date;
import java.util.UUID;

/**
 * The stored operational attributes, set on every write (entryUUID, createTimestamp,
 * creatorsName, modifyTimestamp, modifiersName, structuralObjectClass); clients cannot set them
 * (NO-USER-MODIFICATION). The computed ones are {@link VirtualAttributes}.
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

  /** Stamps a new entry added over LDAP, whose structural object class the schema check found. */
  static void onAdd(Entry entry, Identity by, ObjectClassDefinition structural) {
    onAdd(entry, by);
    entry.setAttribute("structuralObjectClass", structural.getNameOrOID());
  }

  /** Stamps a modified entry. */
  public static void onModify(Entry entry, Identity by) {
    entry.setAttribute("modifyTimestamp", StaticUtils.encodeGeneralizedTime(new Date()));
    entry.setAttribute("modifiersName", by.dn().toString());
  }
}
