package io.rockds.server;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.ObjectClassDefinition;
import io.rockds.server.schema.SchemaChecker;
import io.rockds.server.schema.SchemaLoader;
import java.util.UUID;

/**
 * The stored operational attributes, set on every write (entryUUID, createTimestamp, creatorsName,
 * modifyTimestamp, modifiersName, structuralObjectClass); clients cannot set them
 * (NO-USER-MODIFICATION). The computed ones are {@link VirtualAttributes}.
 */
public final class OperationalAttributes {

  private OperationalAttributes() {}

  /**
   * Stamps a new entry written without an LDAP add (setup, import): also stores its superior object
   * classes and structuralObjectClass as an add would, by the bundled standard schema (a new
   * instance has no custom schema yet; classes it does not know are left as given).
   */
  public static void onAdd(Entry entry, Identity by) {
    stamp(entry, by);
    SchemaChecker standard = StandardSchema.CHECKER;
    standard.addSuperiorClasses(entry);
    ObjectClassDefinition structural = standard.structuralOf(entry);
    if (structural != null) {
      entry.setAttribute("structuralObjectClass", structural.getNameOrOID());
    }
  }

  /** Stamps a new entry added over LDAP, whose structural object class the schema check found. */
  static void onAdd(Entry entry, Identity by, ObjectClassDefinition structural) {
    stamp(entry, by);
    entry.setAttribute("structuralObjectClass", structural.getNameOrOID());
  }

  private static void stamp(Entry entry, Identity by) {
    String now = now();
    entry.setAttribute("entryUUID", UUID.randomUUID().toString());
    entry.setAttribute("createTimestamp", now);
    entry.setAttribute("creatorsName", by.dn().toString());
    entry.setAttribute("modifyTimestamp", now);
    entry.setAttribute("modifiersName", by.dn().toString());
  }

  /** Loaded on first use only: operations over LDAP use the server's schema instead. */
  private static final class StandardSchema {
    static final SchemaChecker CHECKER = new SchemaChecker(SchemaLoader.standard());
  }

  /** Stamps an entry modified by a prepared write, with the values its preparation chose. */
  static void onModify(Entry entry, com.unboundid.ldap.sdk.DN by, String time) {
    entry.setAttribute("modifyTimestamp", time);
    entry.setAttribute("modifiersName", by.toString());
  }

  /** The current time as the timestamps store it. */
  public static String now() {
    return GeneralizedTimes.now();
  }
}
