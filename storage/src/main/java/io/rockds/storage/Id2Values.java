package io.rockds.storage;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.matching.MatchingRules;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * {@code id2values}: the values of the attributes stored apart from their entry (see {@link
 * #isApart}: the group membership attributes and the binary ones, photos and certificates), one
 * record per value, so that adding or removing one member of a group of a million touches one key,
 * and reading an entry's DN or small attributes never reads its photo.
 *
 * <pre>
 *   key:   entry ID (8 bytes big-endian) · description id (4 bytes big-endian) · value key
 *   value: the raw value
 * </pre>
 *
 * The value key is the value normalized with the attribute's equality rule (the one modify and the
 * equality index use), or {@code 0xFF} and the raw bytes for a value the rule cannot normalize (no
 * UTF-8 starts so): values equal under the rule share a key, and a compare or an equality test is
 * one point read. For a binary type the key is the SHA-256 digest of that normalized form instead
 * (a 1.5 kB photo would otherwise be stored twice, in its key and its record): a read compares the
 * stored value with the one asked for, so two values sharing a digest are never taken for equal,
 * and a write that would store two such values under one key is refused ({@link #collision}). An
 * entry's values are the key range of its ID, read in key order.
 */
public final class Id2Values extends Tree {
  /** The attribute types a group grows without bound. */
  private static final Set<String> MEMBERS =
      Set.of("member", "2.5.4.31", "uniquemember", "2.5.4.50");

  /**
   * The binary types (names and OIDs), large values no search reads but those returning them: a
   * fixed list rather than the schema's syntax, so that an attribute's layout cannot change with a
   * schema edit and is known where no schema is at hand (the codec, the filters).
   */
  private static final Set<String> BINARY =
      Set.of(
          "jpegphoto",
          "0.9.2342.19200300.100.1.60",
          "photo",
          "0.9.2342.19200300.100.1.7",
          "audio",
          "0.9.2342.19200300.100.1.55",
          "usercertificate",
          "2.5.4.36",
          "cacertificate",
          "2.5.4.37",
          "authorityrevocationlist",
          "2.5.4.38",
          "certificaterevocationlist",
          "2.5.4.39",
          "crosscertificatepair",
          "2.5.4.40",
          "deltarevocationlist",
          "2.5.4.53",
          "usersmimecertificate",
          "2.16.840.1.113730.3.1.40",
          "userpkcs12",
          "2.16.840.1.113730.3.1.216");

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
    String type = Attribute.getBaseName(description).toLowerCase(Locale.ROOT);
    return MEMBERS.contains(type) || BINARY.contains(type);
  }

  /**
   * Whether this description is of a binary type: its values are keyed by the digest of their
   * normalized form, and an entry holds few of them.
   */
  static boolean isBinary(String description) {
    return BINARY.contains(Attribute.getBaseName(description).toLowerCase(Locale.ROOT));
  }

  /**
   * The key of a value of {@code description}: normalized by its equality rule, else raw; the
   * digest of that for a binary type.
   */
  byte[] valueKey(String description, byte[] value) {
    byte[] normalized = normalized(description, value);
    return isBinary(description) ? sha256(normalized) : normalized;
  }

  private byte[] normalized(String description, byte[] value) {
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

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /**
   * Whether two values sharing a key are equal under the equality rule: always, unless the key is a
   * digest.
   */
  boolean sameValue(String description, byte[] a, byte[] b) {
    return !isBinary(description)
        || Arrays.equals(a, b)
        || Arrays.equals(normalized(description, a), normalized(description, b));
  }

  /** The refusal of a write that would store two unequal values under one digest key. */
  static LDAPException collision(String description) {
    return new LDAPException(
        ResultCode.UNWILLING_TO_PERFORM,
        "two different values of "
            + description
            + " have the same SHA-256 digest: the server cannot store both");
  }

  /**
   * The values of one attribute by key, the first of values sharing a key (equal under the rule);
   * refused if two unequal values share a digest key.
   */
  Map<ByteBuffer, byte[]> keyed(String description, byte[][] values) throws LDAPException {
    Map<ByteBuffer, byte[]> keyed = new LinkedHashMap<>();
    for (byte[] value : values) {
      byte[] first = keyed.putIfAbsent(ByteBuffer.wrap(valueKey(description, value)), value);
      if (first != null && !sameValue(description, first, value)) {
        throw collision(description);
      }
    }
    return keyed;
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

  /**
   * The stored value of {@code description} of entry {@code id} under this key ({@link #valueKey}
   * of {@code value}), or null: null too when a different value shares the digest key.
   */
  byte[] find(long id, int descriptionId, String description, byte[] value, byte[] valueKey)
      throws RocksDBException {
    byte[] stored = db.get(handle, key(id, descriptionId, valueKey));
    return stored == null || !sameValue(description, stored, value) ? null : stored;
  }

  /** {@link #find}, refused when a different value is stored under the same digest key. */
  byte[] findForWrite(long id, int descriptionId, String description, byte[] value, byte[] valueKey)
      throws RocksDBException, LDAPException {
    byte[] stored = db.get(handle, key(id, descriptionId, valueKey));
    if (stored != null && !sameValue(description, stored, value)) {
      throw collision(description);
    }
    return stored;
  }

  /**
   * The keys a record lists for these values of {@code description} (all its values, keyed by
   * {@link #valueKey}), in key order: those of a binary type, a few digests; null for the members
   * of a group, which may be millions and are read as a key range.
   */
  static byte[][] listedKeys(String description, Collection<ByteBuffer> keys) {
    if (!isBinary(description)) {
      return null;
    }
    byte[][] listed = new byte[keys.size()][];
    int i = 0;
    for (ByteBuffer key : keys) {
      listed[i++] = Arrays.copyOfRange(key.array(), key.position(), key.limit());
    }
    Arrays.sort(listed, Arrays::compareUnsigned);
    return listed;
  }

  /** Every value of one attribute stored apart of an entry, in key order. */
  ASN1OctetString[] values(long id, StoredEntry.Apart apart, ReadOptions options) {
    try {
      return raw(id, apart, options).stream()
          .map(ASN1OctetString::new)
          .toArray(ASN1OctetString[]::new);
    } catch (RocksDBException e) {
      throw new IllegalStateException("cannot read the values of entry " + id + ": " + e, e);
    }
  }

  /**
   * Every value of one attribute stored apart of an entry, in key order: by point reads of the keys
   * its record lists, else (none listed, or one gone since the record was read) its key range. A
   * read from memory only that needs the disk fails (NOT_IN_MEMORY) rather than return some.
   */
  List<byte[]> raw(long id, StoredEntry.Apart apart, ReadOptions options) throws RocksDBException {
    List<byte[]> listed = listed(id, apart, options);
    return listed != null ? listed : range(id, apart.descriptionId(), options);
  }

  /**
   * The values of one attribute stored apart by point reads of the keys its record lists, in key
   * order; null when the record lists none, or when one is gone: the entry changed since its record
   * was read. Values are addressed by their content, so values all found belong with that record.
   */
  List<byte[]> listed(long id, StoredEntry.Apart apart, ReadOptions options)
      throws RocksDBException {
    byte[][] keys = apart.keys();
    if (keys == null) {
      return null;
    }
    List<byte[]> found = new ArrayList<>(keys.length);
    for (byte[] valueKey : keys) {
      byte[] key = key(id, apart.descriptionId(), valueKey);
      byte[] value = options == null ? db.get(handle, key) : db.get(handle, options, key);
      if (value == null) {
        return null;
      }
      found.add(value);
    }
    return found;
  }

  private List<byte[]> range(long id, int descriptionId, ReadOptions options)
      throws RocksDBException {
    List<byte[]> values = new ArrayList<>(1);
    try (Range range = new Range(id, descriptionId, options)) {
      for (; range.it.isValid(); range.it.next()) {
        values.add(range.it.value());
      }
      range.it.status();
    }
    return values;
  }

  /**
   * The first stored value (key and value) of the attribute whose key is none of {@code excluded},
   * or null: at most {@code excluded.size() + 1} records read.
   */
  byte[][] firstOther(long id, StoredEntry.Apart apart, Set<ByteBuffer> excluded)
      throws RocksDBException {
    if (apart.keys() != null) {
      for (byte[] valueKey : apart.keys()) {
        if (!excluded.contains(ByteBuffer.wrap(valueKey))) {
          byte[] value = db.get(handle, key(id, apart.descriptionId(), valueKey));
          if (value != null) {
            return new byte[][] {valueKey, value};
          }
          break; // Gone since the record was read: the range says what is there now.
        }
      }
    }
    try (Range range = new Range(id, apart.descriptionId(), null)) {
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
