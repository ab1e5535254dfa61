package io.rockds.storage;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import com.unboundid.util.StaticUtils;
import io.rockds.storage.matching.MatchingRules;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * One reversed attribute index: {@code <attr>.<matchingRule>} (equality, ordering), {@code
 * <attr>.<substringRule>:<length>}, {@code <attr>.presence} or {@code
 * <attr>.soundexApproximateMatch}, mapping a normalized key to the IDs of the entries holding it,
 * encoded by {@link IdListCodec}.
 *
 * <p>Keys are the attribute's values normalized with its schema matching rule (UnboundID's
 * implementations). Substring keys are every suffix of the normalized value cut to {@code
 * substring-length} bytes ({@code abcde}, length 3: {@code abc bcd cde de e}); presence has the
 * single key {@code +}; ordering keys of integers use an order-preserving encoding so {@code >=}
 * and {@code <=} are key-range scans.
 */
public final class AttributeIndex extends Tree {
  static final byte[] PRESENCE_KEY = {'+'};

  private final String attribute;
  private final IndexType type;
  private final MatchingRule rule;
  private final boolean integerOrdering;
  private final int substringLength;
  private final IndexEntryLimits limits;

  /**
   * The limit the records were built with (stored in {@link BackendState}); see {@link
   * IndexEntryLimits}.
   */
  private volatile int builtWithLimit;

  private volatile boolean trusted;

  /**
   * While a rebuild runs, entries with IDs in {@code [buildCursor, buildWatermark)} are left to it:
   * writers skip this index for them (see {@link IndexBuild}). Outside a rebuild the range is
   * empty.
   */
  private volatile long buildCursor = Long.MAX_VALUE;

  private volatile long buildWatermark;

  AttributeIndex(
      RocksDB db,
      ColumnFamilyHandle handle,
      String rawPrefix,
      String name,
      String attribute,
      IndexType type,
      MatchingRule rule,
      boolean integerOrdering,
      int substringLength,
      IndexEntryLimits limits) {
    super(db, handle, name, rawPrefix + name);
    this.attribute = attribute;
    this.type = type;
    this.rule = rule;
    this.integerOrdering = integerOrdering;
    this.substringLength = substringLength;
    this.limits = limits;
  }

  /**
   * The tree name OpenDJ would give this index, e.g. {@code mail.caseIgnoreIA5SubstringsMatch:6}.
   */
  static String treeName(String attribute, IndexType type, int substringLength, Schema schema) {
    AttributeTypeDefinition definition = schema.getAttributeType(attribute);
    return switch (type) {
      case PRESENCE -> attribute + ".presence";
      case APPROXIMATE -> attribute + ".soundexApproximateMatch";
      case EQUALITY ->
          attribute
              + "."
              + ruleName(
                  definition == null ? null : definition.getEqualityMatchingRule(schema),
                  MatchingRule.selectEqualityMatchingRule(attribute, schema)
                      .getEqualityMatchingRuleName());
      case ORDERING ->
          attribute
              + "."
              + ruleName(
                  definition == null ? null : definition.getOrderingMatchingRule(schema),
                  orderingFallback(attribute, schema));
      case SUBSTRING ->
          attribute
              + "."
              + ruleName(
                  definition == null ? null : definition.getSubstringMatchingRule(schema),
                  MatchingRule.selectSubstringMatchingRule(attribute, schema)
                      .getSubstringMatchingRuleName())
              + ":"
              + substringLength;
    };
  }

  private static String orderingFallback(String attribute, Schema schema) {
    String name =
        MatchingRule.selectOrderingMatchingRule(attribute, schema).getOrderingMatchingRuleName();
    return name == null ? "caseIgnoreOrderingMatch" : name;
  }

  private static String ruleName(String fromSchema, String fallback) {
    return fromSchema != null ? fromSchema : fallback;
  }

  /**
   * The rule keys are normalized with: the very one filters are evaluated with ({@link
   * MatchingRules}).
   */
  static MatchingRule ruleFor(String attribute, IndexType type, Schema schema) {
    return switch (type) {
      case SUBSTRING -> MatchingRules.forIndex(attribute, MatchingRules.Kind.SUBSTRING, schema);
      case ORDERING -> MatchingRules.forIndex(attribute, MatchingRules.Kind.ORDERING, schema);
      default -> MatchingRules.forIndex(attribute, MatchingRules.Kind.EQUALITY, schema);
    };
  }

  public String attribute() {
    return attribute;
  }

  public IndexType indexType() {
    return type;
  }

  public int substringLength() {
    return substringLength;
  }

  /** The limit in force now (the live configuration, {@link IndexEntryLimits}). */
  public IndexEntryLimit entryLimit() {
    return limits.of(attribute);
  }

  /** The backend's limits, which answer whether a key of this index is over its limit. */
  public IndexEntryLimits limits() {
    return limits;
  }

  /**
   * The index-entry-limit the records were built with (by a rebuild, an import, or when created
   * empty).
   */
  public int builtWithLimit() {
    return builtWithLimit;
  }

  /**
   * True when the limit changed since the records were built: a rebuild would make the index exact
   * again.
   */
  public boolean rebuildWouldTighten() {
    return limits.rebuildWouldTighten(this);
  }

  /**
   * Notes (and persists in {@code state}) that the records are now built with the limit in force.
   */
  void markBuilt(BackendState state) throws RocksDBException {
    int limit = entryLimit().limit();
    state.storeEntryLimit(name(), limit);
    builtWithLimit = limit;
  }

  void setBuiltWithLimit(int limit) {
    builtWithLimit = limit;
  }

  /**
   * An untrusted index (new, or cleared for a rebuild) is maintained on writes but never read by
   * searches.
   */
  public boolean isTrusted() {
    return trusted;
  }

  void setTrustedFlag(boolean trusted) {
    this.trusted = trusted;
  }

  /** False only for an entry a running rebuild has not reached yet: the rebuild will index it. */
  boolean isMaintainedFor(long id) {
    return id < buildCursor || id >= buildWatermark;
  }

  /**
   * Every entry below {@code watermark} now waits for the rebuild; called under the structure lock.
   */
  void startBuild(long watermark) {
    buildWatermark = watermark;
    buildCursor = 0;
  }

  /** Entries below {@code cursor} are indexed; called while their DN locks are held. */
  void advanceBuild(long cursor) {
    buildCursor = cursor;
  }

  void finishBuild() {
    buildCursor = Long.MAX_VALUE;
    buildWatermark = 0;
  }

  /** The matching rule keys are normalized with. */
  public MatchingRule matchingRule() {
    return rule;
  }

  // ---------------------------------------------------------------- keys

  /**
   * The keys an entry loses and gains in this index when its values change as {@code values} says.
   * Only changed values are normalized, plus, when some key may be lost or gained, the kept ones
   * (another value may still produce that key): adding one member to a group of 100,000 costs
   * hashing the members and normalizing them with a fast path, not parsing 200,000 DNs.
   */
  KeyChange keyChange(ValueChange values) {
    if (values.isNone()) {
      return KeyChange.NONE;
    }
    if (type == IndexType.PRESENCE) {
      Set<IndexKey> presence = Set.of(new IndexKey(PRESENCE_KEY));
      return values.wasEmpty()
          ? new KeyChange(Set.of(), presence)
          : values.isEmpty() ? new KeyChange(presence, Set.of()) : KeyChange.NONE;
    }
    Set<IndexKey> lost = keysOf(values.removed());
    Set<IndexKey> gained = keysOf(values.added());
    Set<IndexKey> both = new HashSet<>(lost);
    both.retainAll(gained);
    lost.removeAll(both);
    gained.removeAll(both);
    if (lost.isEmpty() && type == IndexType.EQUALITY) {
      // A kept value producing a gained key would equal an added value under the matching rule.
      // Then the ID is listed already and listing it again changes nothing; only an over-limit
      // key's count would count the entry twice, so 100,000 kept members are not normalized.
      return new KeyChange(lost, gained);
    }
    Set<IndexKey> keptKeys = new HashSet<>();
    for (byte[] value : values.kept()) {
      if (lost.isEmpty() && gained.isEmpty()) {
        break;
      }
      keptKeys.clear();
      addKeys(new ASN1OctetString(value), keptKeys);
      lost.removeAll(keptKeys);
      gained.removeAll(keptKeys);
    }
    return new KeyChange(lost, gained);
  }

  private Set<IndexKey> keysOf(List<byte[]> values) {
    Set<IndexKey> keys = new HashSet<>();
    for (byte[] value : values) {
      addKeys(new ASN1OctetString(value), keys);
    }
    return keys;
  }

  /** Every key {@code entry} contributes to this index. */
  public Set<IndexKey> keysOf(Entry entry) {
    return keysOf(entry.getAttributesWithOptions(attribute, null));
  }

  /**
   * Every key an entry contributes to this index, given its attributes grouped by {@link
   * #attributesByType}: one pass over the entry serves all its indexes, where {@link
   * #keysOf(Entry)} scans every attribute of the entry for each index.
   */
  public Set<IndexKey> keysOf(Map<String, List<Attribute>> attributesByType) {
    return keysOf(attributesOf(attributesByType));
  }

  /**
   * Like {@link #keysOf(Map)}, but a key shared by several values (or substrings) may come more
   * than once: cheaper for a caller that drops repeats itself, as the bulk load does.
   */
  public List<IndexKey> keysWithRepeats(Map<String, List<Attribute>> attributesByType) {
    List<IndexKey> keys = new ArrayList<>();
    addKeys(attributesOf(attributesByType), keys);
    return keys;
  }

  private List<Attribute> attributesOf(Map<String, List<Attribute>> attributesByType) {
    return attributesByType.getOrDefault(StaticUtils.toLowerCase(attribute), List.of());
  }

  /**
   * The attributes of {@code entry} by lower-case name without options, as {@link #keysOf(Map)}
   * takes them.
   */
  public static Map<String, List<Attribute>> attributesByType(Entry entry) {
    Map<String, List<Attribute>> byType = new HashMap<>();
    for (Attribute a : entry.getAttributes()) {
      byType
          .computeIfAbsent(StaticUtils.toLowerCase(a.getBaseName()), k -> new ArrayList<>(1))
          .add(a);
    }
    return byType;
  }

  private Set<IndexKey> keysOf(Collection<Attribute> attributes) {
    Set<IndexKey> keys = new HashSet<>();
    addKeys(attributes, keys);
    return keys;
  }

  private void addKeys(Collection<Attribute> attributes, Collection<IndexKey> keys) {
    for (Attribute a : attributes) {
      if (type == IndexType.PRESENCE) {
        keys.add(new IndexKey(PRESENCE_KEY));
        break;
      }
      for (ASN1OctetString value : a.getRawValues()) {
        addKeys(value, keys);
      }
    }
  }

  private void addKeys(ASN1OctetString value, Collection<IndexKey> keys) {
    byte[] normalized = normalize(value);
    if (normalized == null) {
      return;
    }
    if (type == IndexType.SUBSTRING) {
      for (int i = 0; i < normalized.length; i++) {
        keys.add(
            new IndexKey(
                Arrays.copyOfRange(
                    normalized, i, Math.min(i + substringLength, normalized.length))));
      }
    } else {
      keys.add(new IndexKey(normalized));
    }
  }

  /**
   * The key of one value (equality, ordering, approximate) or the normalized value substring keys
   * are cut from; null for a value the matching rule cannot normalize (it matches nothing).
   */
  public byte[] normalize(ASN1OctetString value) {
    try {
      byte[] normalized = normalizeWithRule(rule, value);
      if (type == IndexType.APPROXIMATE) {
        return Soundex.encode(new String(normalized, StandardCharsets.UTF_8))
            .getBytes(StandardCharsets.UTF_8);
      }
      if (type == IndexType.ORDERING && integerOrdering) {
        return OrderingKeys.integer(new String(normalized, StandardCharsets.UTF_8));
      }
      return normalized;
    } catch (LDAPException | NumberFormatException e) {
      return null;
    }
  }

  /**
   * {@code value} normalized by {@code rule}, DNs by the fast normalizer where it gives the same
   * result.
   */
  static byte[] normalizeWithRule(MatchingRule rule, ASN1OctetString value) throws LDAPException {
    if (MatchingRules.normalizesAsDn(rule, value.getValue())) {
      byte[] simple = SimpleDnNormalizer.normalize(value.getValue());
      if (simple != null) {
        return simple;
      }
    }
    return rule.normalize(value).getValue();
  }

  /** A substring assertion fragment normalized like the indexed values; null if invalid. */
  public byte[] normalizeSubstring(ASN1OctetString fragment, byte substringType) {
    try {
      return rule.normalizeSubstring(fragment, substringType).getValue();
    } catch (LDAPException e) {
      return null;
    }
  }

  // ---------------------------------------------------------------- reads

  /**
   * The IDs of the entries holding {@code value}, for callers outside storage: null when this index
   * cannot answer (not trusted, or the key is over its entry limit); empty for a value the matching
   * rule cannot normalize.
   */
  public IdSet idsEqualTo(ASN1OctetString value) throws StorageException {
    if (!isTrusted()) {
      return null;
    }
    byte[] key = normalize(value);
    if (key == null) {
      return IdSet.empty();
    }
    try {
      IdSet ids = read(key);
      return ids.isDefined() ? ids : null;
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * The IDs under one key; undefined if over the limit in force ({@link
   * IndexEntryLimits#isOverLimit}).
   */
  public IdSet read(byte[] key) throws RocksDBException {
    byte[] record = db.get(handle, key);
    return limits.isOverLimit(this, record)
        ? IdSet.undefined(IdSet.Undefined.LIMIT_EXCEEDED)
        : IdListCodec.decode(record);
  }

  /**
   * The union of the IDs of every key in {@code [lower, upper)} (either bound may be null for
   * open). Undefined as soon as one key is over the limit or the union passes {@code maxIds}, as
   * OpenDJ's cursor entry limit does.
   */
  public IdSet readRange(byte[] lower, byte[] upper, int maxIds) throws RocksDBException {
    IdSet.Builder ids = new IdSet.Builder();
    try (Slice upperSlice = upper == null ? null : new Slice(upper);
        ReadOptions options = new ReadOptions();
        RocksIterator it = openRange(options, upperSlice)) {
      if (lower == null) {
        it.seekToFirst();
      } else {
        it.seek(lower);
      }
      for (; it.isValid(); it.next()) {
        byte[] value = it.value();
        if (limits.isOverLimit(this, value)) {
          return IdSet.undefined(IdSet.Undefined.LIMIT_EXCEEDED);
        }
        for (long id : IdListCodec.decode(value).toArray()) {
          ids.add(id);
        }
        if (maxIds > 0 && ids.size() > maxIds) {
          return IdSet.undefined(IdSet.Undefined.LIMIT_EXCEEDED);
        }
      }
    }
    return ids.build();
  }

  /** A raw record as a set: its IDs, or undefined (limit exceeded) for an over-limit marker. */
  public static IdSet decodeRecord(byte[] value) {
    return IdListCodec.decode(value);
  }

  /** True when a raw record is the over-limit marker. */
  public static boolean isOverLimitRecord(byte[] value) {
    return IdListCodec.isOverLimit(value);
  }

  /** The number of IDs a defined raw record lists, read without decoding them. */
  public static int idCount(byte[] value) {
    return IdListCodec.count(value);
  }

  private RocksIterator openRange(ReadOptions options, Slice upper) {
    if (upper != null) {
      options.setIterateUpperBound(upper);
    }
    return db.newIterator(handle, options);
  }

  @Override
  public String type() {
    return "MatchingRuleIndex";
  }

  @Override
  public String keyToString(byte[] key) {
    return new String(key, StandardCharsets.UTF_8);
  }

  @Override
  public String valueToString(byte[] value) {
    IdSet ids = IdListCodec.decode(value);
    if (!ids.isDefined()) {
      return ids.toString();
    }
    StringBuilder sb = new StringBuilder(ids.toString());
    for (long id : ids.toArray()) {
      sb.append(' ').append(id);
    }
    return sb.toString();
  }
}
