package io.rockds.storage;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.matching.MatchingRules;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;

/**
 * {@code id2values}: the values of the attributes stored apart from their entry (the group
 * membership attributes {@code member} and {@code uniqueMember}, see {@link #isApart}), one record
 * per value, so that adding or removing one member of a group of a million touches one key.
 *
 * <pre>
 *   key:   entry ID (8 bytes big-endian) · description id (4 bytes big-endian) · value key
 *   value: the raw value
 * </pre>
 *
 * The value key is the value normalized with the attribute's equality rule (the one modify and the
 * equality index use), or {@code 0xFF} and the raw bytes for a value the rule cannot normalize (no
 * UTF-8 starts so): values equal under the rule share a key, and a compare or an equality test is
 * one point read. An entry's values are the key range of its ID, read in key order.
 */
public final class Id2Values extends Tree {
  /** The attribute types stored apart: those a group grows without bound. */
  private static final Set<String> APART = Set.of("member", "2.5.4.31", "uniquemember", "2.5.4.50");

  private static final byte UNNORMALIZED = (byte) 0xFF;
  private static final int PREFIX_BYTES = 12;

  private final Schema schema;
  private final ConcurrentHashMap<String, MatchingRule> rules = new ConcurrentHashMap<>();

  Id2Values(RocksDB db, ColumnFamilyHandle handle, String rawPrefix, Schema schema) {
    super(db, handle, "id2values", rawPrefix + "id2values");
    this.schema = schema;
  }

  /**
   * Whether the values of this attribute description are stored here rather than in the entry's
   * record. Decided by type, not by value count: an attribute never moves between layouts, so a
   * modify costs the same at 10 values as at a million, and every reader follows one rule.
   */
  public static boolean isApart(String description) {
    return APART.contains(Attribute.getBaseName(description).toLowerCase(Locale.ROOT));
  }

  /** The key of a value of {@code description}: normalized by its equality rule, else raw. */
  byte[] valueKey(String description, byte[] value) {
    MatchingRule rule =
        rules.computeIfAbsent(
            Attribute.getBaseName(description).toLowerCase(Locale.ROOT),
            type -> MatchingRules.forIndex(type, MatchingRules.Kind.EQUALITY, schema));
    try {
      return AttributeIndex.normalizeWithRule(rule, new ASN1OctetString(value));
    } catch (LDAPException unreadable) {
      byte[] key = new byte[value.length + 1];
      key[0] = UNNORMALIZED;
      System.arraycopy(value, 0, key, 1, value.length);
      return key;
    }
  }

  static byte[] key(long id, int descriptionId, byte[] valueKey) {
    byte[] key = new byte[PREFIX_BYTES + valueKey.length];
    writePrefix(key, id, descriptionId);
    System.arraycopy(valueKey, 0, key, PREFIX_BYTES, valueKey.length);
    return key;
  }

  private static byte[] prefix(long id, int descriptionId) {
    byte[] prefix = new byte[PREFIX_BYTES];
    writePrefix(prefix, id, descriptionId);
    return prefix;
  }

  private static void writePrefix(byte[] key, long id, int descriptionId) {
    Bytes.putLong(key, 0, id);
    ByteBuffer.wrap(key, 8, 4).putInt(descriptionId);
  }

  void put(WriteBatch batch, long id, int descriptionId, byte[] valueKey, byte[] value)
      throws RocksDBException {
    batch.put(handle, key(id, descriptionId, valueKey), value);
  }

  void delete(WriteBatch batch, long id, int descriptionId, byte[] valueKey)
      throws RocksDBException {
    batch.delete(handle, key(id, descriptionId, valueKey));
  }

  /** Deletes every value of entry {@code id}: one range tombstone, whatever their number. */
  void deleteAll(WriteBatch batch, long id) throws RocksDBException {
    batch.deleteRange(handle, Bytes.longKey(id), Bytes.longKey(id + 1));
  }

  /** Deletes every value of one attribute description of entry {@code id}: one range tombstone. */
  void deleteAll(WriteBatch batch, long id, int descriptionId) throws RocksDBException {
    byte[] prefix = prefix(id, descriptionId);
    batch.deleteRange(handle, prefix, Bytes.prefixEnd(prefix));
  }

  /** The stored value of {@code description} of entry {@code id} with this key, or null. */
  byte[] find(long id, int descriptionId, byte[] valueKey, ReadOptions options)
      throws RocksDBException {
    byte[] key = key(id, descriptionId, valueKey);
    return options == null ? db.get(handle, key) : db.get(handle, options, key);
  }

  /** Every value of one attribute description of an entry, in key order. */
  ASN1OctetString[] values(long id, int descriptionId, ReadOptions options) {
    List<ASN1OctetString> values = new ArrayList<>();
    try (Range range = new Range(id, descriptionId, options)) {
      for (; range.it.isValid(); range.it.next()) {
        values.add(new ASN1OctetString(range.it.value()));
      }
    }
    return values.toArray(ASN1OctetString[]::new);
  }

  /**
   * The first stored value (key and value) of the description whose key is none of {@code
   * excluded}, or null: at most {@code excluded.size() + 1} records read.
   */
  byte[][] firstOther(long id, int descriptionId, Set<ByteBuffer> excluded) {
    try (Range range = new Range(id, descriptionId, null)) {
      for (; range.it.isValid(); range.it.next()) {
        byte[] key = range.it.key();
        ByteBuffer valueKey = ByteBuffer.wrap(key, PREFIX_BYTES, key.length - PREFIX_BYTES);
        if (!excluded.contains(valueKey)) {
          return new byte[][] {Arrays.copyOfRange(key, PREFIX_BYTES, key.length), range.it.value()};
        }
      }
    }
    return null;
  }

  /** An iterator positioned on the first record of one description, bounded to its records. */
  private final class Range implements AutoCloseable {
    private final Slice upper;
    private final ReadOptions options;
    private final RocksIterator it;

    Range(long id, int descriptionId, ReadOptions base) {
      byte[] prefix = prefix(id, descriptionId);
      upper = new Slice(Bytes.prefixEnd(prefix));
      options = base == null ? new ReadOptions() : new ReadOptions(base);
      options.setIterateUpperBound(upper);
      it = db.newIterator(handle, options);
      it.seek(prefix);
    }

    @Override
    public void close() {
      it.close();
      options.close();
      upper.close();
    }
  }

  /** The entry ID of a raw key. */
  public static long idOf(byte[] key) {
    return Bytes.readLongKey(key, 0);
  }

  /** The attribute description id of a raw key. */
  public static int descriptionIdOf(byte[] key) {
    return ByteBuffer.wrap(key, 8, 4).getInt();
  }

  @Override
  public String type() {
    return "ID2Values";
  }

  @Override
  public String keyToString(byte[] key) {
    if (key.length < PREFIX_BYTES) {
      return Arrays.toString(key);
    }
    return idOf(key)
        + " "
        + descriptionIdOf(key)
        + " "
        + new String(key, PREFIX_BYTES, key.length - PREFIX_BYTES, StandardCharsets.UTF_8);
  }

  @Override
  public String valueToString(byte[] value) {
    return new String(value, StandardCharsets.UTF_8);
  }
}
