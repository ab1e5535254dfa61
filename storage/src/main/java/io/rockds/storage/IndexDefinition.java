package io.rockds.storage;

import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * One configured index tree of a backend (an attribute and one index type), as the backend's
 * settings and schema define it, before its column family is open.
 *
 * @param name the tree name, e.g. {@code sn.caseIgnoreMatch}
 * @param integerOrdering ordering keys compare as integers (INTEGER syntax)
 */
record IndexDefinition(
    String name, String attribute, IndexType type, int substringLength, boolean integerOrdering) {
  private static final String INTEGER_SYNTAX = "1.3.6.1.4.1.1466.115.121.1.27";

  /** Every index tree the settings configure. */
  static List<IndexDefinition> all(BackendSettings settings, Schema schema) {
    List<IndexDefinition> defs = new ArrayList<>();
    for (IndexSpec spec : settings.indexes()) {
      defs.addAll(of(spec, settings, schema));
    }
    return defs;
  }

  /**
   * The trees of one configured index, one per type (their limit is the backend's {@link
   * IndexEntryLimits}).
   */
  static List<IndexDefinition> of(IndexSpec spec, BackendSettings settings, Schema schema) {
    List<IndexDefinition> defs = new ArrayList<>();
    for (IndexType type : spec.types()) {
      String name = AttributeIndex.treeName(spec.attribute(), type, spec.substringLength(), schema);
      defs.add(
          new IndexDefinition(
              name,
              spec.attribute(),
              type,
              spec.substringLength(),
              isInteger(spec.attribute(), schema)));
    }
    return defs;
  }

  static boolean isInteger(String attribute, Schema schema) {
    AttributeTypeDefinition type = schema.getAttributeType(attribute);
    String syntax = type == null ? null : type.getSyntaxOID(schema);
    return INTEGER_SYNTAX.equals(syntax);
  }

  /**
   * The index over its open column family in the container whose raw names start with {@code
   * prefix}.
   */
  AttributeIndex open(
      RocksDB db,
      ColumnFamilyHandle handle,
      String prefix,
      Schema schema,
      IndexEntryLimits limits) {
    return new AttributeIndex(
        db,
        handle,
        prefix,
        name,
        attribute,
        type,
        AttributeIndex.ruleFor(attribute, type, schema),
        integerOrdering,
        substringLength,
        limits);
  }

  /**
   * Whether {@code index}, opened for writing, can be trusted: yes if the container is empty,
   * otherwise only if it existed and was trusted. A changed limit does not matter ({@link
   * IndexEntryLimits}). Persists the answer; an empty container's indexes are built with the limit
   * in force.
   */
  boolean reconcileTrust(BackendState state, AttributeIndex index, boolean empty, boolean fresh)
      throws RocksDBException {
    Boolean trusted = state.isTrusted(name);
    boolean nowTrusted = empty || (!fresh && !Boolean.FALSE.equals(trusted));
    if (!Boolean.valueOf(nowTrusted).equals(trusted)) {
      state.setTrusted(name, nowTrusted);
    }
    if (empty || state.storedEntryLimit(name) == null) {
      index.markBuilt(state);
    }
    return nowTrusted;
  }
}
