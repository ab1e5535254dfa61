package io.rockds.storage;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.MatchingRuleDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.matching.FilterEvaluator;
import io.rockds.storage.matching.PreparedFilter;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * A VLV index (OpenDJ's {@code vlv.<name>} tree): the entries of one base DN, scope and filter in
 * one sort order, stored so that the entry at any offset is found without a scan.
 *
 * <p>Each entry has a <em>sort key</em>: per sort key of the index its smallest normalized value
 * (largest when descending), encoded so that plain byte order is the sort order, then its 8-byte ID
 * (ties go to the older entry, as the in-memory sort does). The sorted keys are cut into
 * <em>blocks</em> of at most {@value #MAX_BLOCK} keys, each stored under its last key:
 *
 * <pre>
 * 0x01 lastKey   the block: varint(count), per key varint(length) bytes
 * 0x02 lastKey   the block's key count, 4 bytes big-endian
 * </pre>
 *
 * The block counts (one per {@value #MAX_BLOCK} entries: 1,000 blocks for a million) are read once
 * at open and kept in memory, so the entry at offset N is one walk over the counts and one block
 * read, whatever the size. A write rewrites the one block the key falls in (splitting it in two
 * past {@value #MAX_BLOCK} keys, dropping it once empty) in the entry's write batch, under the
 * index's lock, which it holds until the batch is committed and the counts published.
 *
 * <p>Sort key component encoding: a present value is {@code 0x01}, its bytes with {@code 0x00}
 * written as {@code 0x00 0x01}, then {@code 0x00 0x00}; every byte after the {@code 0x01} inverted
 * for a descending key. An absent value is {@code 0x02}: after every value in either direction.
 */
public final class VlvIndex extends Tree {
  static final int MAX_BLOCK = 1000;

  /** Blocks written by a rebuild are filled this far, leaving room for inserts. */
  private static final int REBUILD_FILL = MAX_BLOCK * 3 / 4;

  private static final byte BLOCK = 1;
  private static final byte COUNT = 2;
  private static final byte PRESENT = 1;
  private static final byte[] ABSENT = {2};

  private record KeyRule(
      String attribute,
      MatchingRule rule,
      MatchingRuleDefinition definition,
      boolean integer,
      boolean reverse,
      boolean fromSchema) {}

  /** A block as the in-memory summary knows it, or, while a write stages it, with its keys. */
  private static final class Block {
    /** The last key its records are stored under; null for a block a write just created. */
    final byte[] stored;

    byte[] last;
    int count;
    List<byte[]> keys;

    Block(byte[] stored, byte[] last, int count) {
      this.stored = stored;
      this.last = last;
      this.count = count;
    }
  }

  private final VlvSpec spec;
  private final Schema schema;

  /** The spec's filter, analysed once for every entry a write or rebuild tests. */
  private final PreparedFilter matching;

  private final List<KeyRule> rules = new ArrayList<>();
  private final String normalizedFilter;

  /** Serializes writers (from staging to publishing) and readers of several records. */
  final ReentrantLock lock = new ReentrantLock();

  private volatile List<Block> blocks;
  private volatile boolean trusted;

  VlvIndex(RocksDB db, ColumnFamilyHandle handle, String prefix, VlvSpec spec, Schema schema)
      throws RocksDBException {
    super(db, handle, spec.treeName(), prefix + spec.treeName());
    this.spec = spec;
    this.schema = schema;
    this.matching = FilterEvaluator.forSchema(schema).prepare(spec.filter());
    this.normalizedFilter = spec.filter().toNormalizedString();
    for (VlvSpec.SortKey key : spec.sortOrder()) {
      MatchingRule rule = AttributeIndex.ruleFor(key.attribute(), IndexType.ORDERING, schema);
      String treeName = AttributeIndex.treeName(key.attribute(), IndexType.ORDERING, 0, schema);
      String ruleName = treeName.substring(treeName.indexOf('.') + 1);
      var type = schema.getAttributeType(key.attribute());
      rules.add(
          new KeyRule(
              key.attribute(),
              rule,
              schema.getMatchingRule(ruleName),
              IndexDefinition.isInteger(key.attribute(), schema),
              key.reverse(),
              type != null && type.getOrderingMatchingRule(schema) != null));
    }
    this.blocks = loadSummary();
  }

  public VlvSpec spec() {
    return spec;
  }

  public boolean isTrusted() {
    return trusted;
  }

  void setTrustedFlag(boolean trusted) {
    this.trusted = trusted;
  }

  /** Entries in the index. */
  public int size() {
    int n = 0;
    for (Block b : blocks) {
      n += b.count;
    }
    return n;
  }

  /** Number of blocks, for backendstat. */
  public int blockCount() {
    return blocks.size();
  }

  @Override
  public String type() {
    return "VLVIndex";
  }

  @Override
  public String keyToString(byte[] key) {
    return (key[0] == BLOCK ? "block " : "count ") + HexFormat.of().formatHex(key, 1, key.length);
  }

  @Override
  public String valueToString(byte[] value) {
    if (value.length == 4) {
      return "count=" + readInt(value);
    }
    StringBuilder sb = new StringBuilder("ids=");
    for (byte[] key : decodeBlock(value)) {
      sb.append(idOf(key)).append(' ');
    }
    return sb.toString().trim();
  }

  // ---------------------------------------------------------------- which searches it serves

  /** A sort key a search asks for: attribute, the matching rule it names (or null), direction. */
  public record RequestedKey(String attribute, String rule, boolean reverse) {}

  /** True when a search with this base, scope, filter and sort order can read this index. */
  public boolean serves(DN base, SearchScope scope, Filter filter, List<RequestedKey> sortOrder) {
    if (!base.equals(spec.base())
        || scope != spec.scope()
        || !filter.toNormalizedString().equals(normalizedFilter)
        || sortOrder.size() != rules.size()) {
      return false;
    }
    for (int i = 0; i < rules.size(); i++) {
      KeyRule ours = rules.get(i);
      RequestedKey wanted = sortOrder.get(i);
      if (!ours.attribute().equalsIgnoreCase(wanted.attribute())
          || ours.reverse() != wanted.reverse()) {
        return false;
      }
      if (wanted.rule() == null ? !ours.fromSchema() : !sameRule(ours, wanted.rule())) {
        return false;
      }
    }
    return true;
  }

  private boolean sameRule(KeyRule ours, String requested) {
    MatchingRuleDefinition definition = schema.getMatchingRule(requested);
    return definition != null
        && ours.definition() != null
        && definition.getOID().equals(ours.definition().getOID());
  }

  // ---------------------------------------------------------------- sort keys

  /** The sort key of the entry with this ID, or null when the index does not hold it. */
  byte[] keyOf(Entry entry, long id) {
    if (entry == null || !inScope(entry) || !matching.matches(entry)) {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (KeyRule rule : rules) {
      byte[] best = null;
      for (Attribute attribute : entry.getAttributesWithOptions(rule.attribute(), null)) {
        for (ASN1OctetString value : attribute.getRawValues()) {
          byte[] component = component(rule, value);
          if (component != null && (best == null || Arrays.compareUnsigned(component, best) < 0)) {
            best = component;
          }
        }
      }
      out.writeBytes(best == null ? ABSENT : best);
    }
    out.writeBytes(Bytes.longKey(id));
    return out.toByteArray();
  }

  private boolean inScope(Entry entry) {
    try {
      return entry.getParsedDN().matchesBaseAndScope(spec.base(), spec.scope());
    } catch (LDAPException e) {
      return false; // a stored entry's DN always parses
    }
  }

  /** The encoded first key component of a VLV assertion value: where the target starts. */
  private byte[] assertionPrefix(ASN1OctetString value) {
    byte[] component = component(rules.get(0), value);
    return component == null ? ABSENT : component;
  }

  private static byte[] component(KeyRule rule, ASN1OctetString value) {
    byte[] normalized;
    try {
      normalized = rule.rule().normalize(value).getValue();
      if (rule.integer()) {
        normalized = OrderingKeys.integer(new String(normalized, StandardCharsets.UTF_8));
      }
    } catch (LDAPException | NumberFormatException e) {
      return null;
    }
    int flip = rule.reverse() ? 0xFF : 0;
    ByteArrayOutputStream out = new ByteArrayOutputStream(normalized.length + 3);
    out.write(PRESENT);
    for (byte b : normalized) {
      out.write((b & 0xFF) ^ flip);
      if (b == 0) {
        out.write(1 ^ flip);
      }
    }
    out.write(flip);
    out.write(flip);
    return out.toByteArray();
  }

  static long idOf(byte[] sortKey) {
    return Bytes.readLongKey(sortKey, sortKey.length - 8);
  }

  // ---------------------------------------------------------------- reads

  /** The IDs at 0-based positions {@code from} to {@code from + count} (fewer at the end). */
  public long[] idsAt(int from, int count) throws LDAPException {
    lock.lock();
    try {
      long[] out = new long[Math.max(0, count)];
      int n = 0;
      int start = 0;
      for (Block block : blocks) {
        if (n == out.length) {
          break;
        }
        int end = start + block.count;
        if (end > from + n) {
          List<byte[]> keys = readBlock(block.stored);
          for (int k = Math.max(0, from + n - start); k < keys.size() && n < out.length; k++) {
            out[n++] = idOf(keys.get(k));
          }
        }
        start = end;
      }
      return n == out.length ? out : Arrays.copyOf(out, n);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The 0-based position of the first entry whose first sort key is at or after {@code value} in
   * the sort order; {@link #size()} when there is none.
   */
  public int positionOf(ASN1OctetString value) throws LDAPException {
    byte[] prefix = assertionPrefix(value);
    lock.lock();
    try {
      int before = 0;
      for (Block block : blocks) {
        if (Arrays.compareUnsigned(block.last, prefix) >= 0) {
          List<byte[]> keys = readBlock(block.stored);
          int at = Collections.binarySearch(keys, prefix, Arrays::compareUnsigned);
          return before + (at >= 0 ? at : -at - 1);
        }
        before += block.count;
      }
      return before;
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- writes

  /** The changes of one write to this index; the caller holds {@link #lock}. */
  final class Staging {
    private final List<Block> work = new ArrayList<>(blocks);
    private final List<byte[]> dropped = new ArrayList<>();

    void remove(byte[] key) throws RocksDBException {
      int i = blockFor(key);
      if (i < 0) {
        return;
      }
      Block block = editable(i);
      int at = Collections.binarySearch(block.keys, key, Arrays::compareUnsigned);
      if (at < 0) {
        return;
      }
      block.keys.remove(at);
      block.count--;
      if (block.count == 0) {
        work.remove(i);
        if (block.stored != null) {
          dropped.add(block.stored);
        }
      } else {
        block.last = block.keys.get(block.count - 1);
      }
    }

    void insert(byte[] key) throws RocksDBException {
      if (work.isEmpty()) {
        Block block = new Block(null, key, 1);
        block.keys = new ArrayList<>(List.of(key));
        work.add(block);
        return;
      }
      int i = blockFor(key);
      if (i < 0) {
        i = work.size() - 1;
      }
      Block block = editable(i);
      int at = Collections.binarySearch(block.keys, key, Arrays::compareUnsigned);
      if (at >= 0) {
        return;
      }
      block.keys.add(-at - 1, key);
      block.count++;
      block.last = block.keys.get(block.count - 1);
      if (block.count > MAX_BLOCK) {
        int half = block.count / 2;
        Block upper = new Block(null, block.last, block.count - half);
        upper.keys = new ArrayList<>(block.keys.subList(half, block.count));
        block.keys = new ArrayList<>(block.keys.subList(0, half));
        block.count = half;
        block.last = block.keys.get(half - 1);
        work.add(i + 1, upper);
      }
    }

    /** The first block whose last key is at or after {@code key}, or -1. */
    private int blockFor(byte[] key) {
      int low = 0;
      int high = work.size();
      while (low < high) {
        int middle = (low + high) >>> 1;
        if (Arrays.compareUnsigned(work.get(middle).last, key) < 0) {
          low = middle + 1;
        } else {
          high = middle;
        }
      }
      return low < work.size() ? low : -1;
    }

    private Block editable(int i) throws RocksDBException {
      Block block = work.get(i);
      if (block.keys == null) {
        Block copy = new Block(block.stored, block.last, block.count);
        copy.keys = new ArrayList<>(readBlock(block.stored));
        work.set(i, copy);
        return copy;
      }
      return block;
    }

    /** Deletes the records of changed blocks, then writes their new ones. */
    void writeTo(WriteBatch batch) throws RocksDBException {
      List<byte[]> stale = new ArrayList<>(dropped);
      for (Block block : work) {
        if (block.keys != null && block.stored != null) {
          stale.add(block.stored);
        }
      }
      for (byte[] last : stale) {
        batch.delete(handle, record(BLOCK, last));
        batch.delete(handle, record(COUNT, last));
      }
      for (Block block : work) {
        if (block.keys != null) {
          batch.put(handle, record(BLOCK, block.last), encodeBlock(block.keys));
          batch.put(handle, record(COUNT, block.last), intBytes(block.count));
        }
      }
    }

    /** Makes the committed changes visible to readers. */
    void publish() {
      List<Block> summary = new ArrayList<>(work.size());
      for (Block block : work) {
        summary.add(new Block(block.last, block.last, block.count));
      }
      blocks = List.copyOf(summary);
    }
  }

  Staging stage() {
    return new Staging();
  }

  /**
   * Rebuilds the index from {@code id2entry}: the caller holds the container's structure lock
   * exclusively, so no write runs meanwhile.
   */
  void rebuild(Id2Entry id2entry, Backend backend) throws RocksDBException, LDAPException {
    List<byte[]> keys = expectedKeys(id2entry);
    lock.lock();
    try {
      clear();
      List<Block> summary = new ArrayList<>();
      WriteBatch batch = new WriteBatch();
      try {
        for (int from = 0; from < keys.size(); from += REBUILD_FILL) {
          List<byte[]> part = keys.subList(from, Math.min(keys.size(), from + REBUILD_FILL));
          byte[] last = part.get(part.size() - 1);
          batch.put(handle, record(BLOCK, last), encodeBlock(part));
          batch.put(handle, record(COUNT, last), intBytes(part.size()));
          summary.add(new Block(last, last, part.size()));
          if (batch.count() >= 200) {
            backend.write(batch);
            batch.close();
            batch = new WriteBatch();
          }
        }
        backend.write(batch);
      } finally {
        batch.close();
      }
      blocks = List.copyOf(summary);
    } finally {
      lock.unlock();
    }
  }

  /** The sort keys of every entry the index should hold, sorted: what rebuild and verify use. */
  List<byte[]> expectedKeys(Id2Entry id2entry) throws RocksDBException {
    List<byte[]> keys = new ArrayList<>();
    try (RocksIterator it = id2entry.newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] key =
            keyOf(
                id2entry.decode(Id2Entry.idOf(it.key()), it.value(), null),
                Id2Entry.idOf(it.key()));
        if (key != null) {
          keys.add(key);
        }
      }
      it.status();
    }
    keys.sort(Arrays::compareUnsigned);
    return keys;
  }

  /**
   * Problems of the stored index against {@code expected} (the keys the entries give): a key
   * missing or extra, a block out of order or miscounted. Empty when consistent.
   */
  public List<String> verify(List<byte[]> expected) throws RocksDBException {
    List<String> problems = new ArrayList<>();
    List<byte[]> stored = new ArrayList<>();
    byte[] previousLast = null;
    try (RocksIterator it = newIterator()) {
      for (it.seek(new byte[] {BLOCK}); it.isValid() && it.key()[0] == BLOCK; it.next()) {
        byte[] last = Arrays.copyOfRange(it.key(), 1, it.key().length);
        List<byte[]> keys = decodeBlock(it.value());
        byte[] count = db.get(handle, record(COUNT, last));
        if (keys.isEmpty() || !Arrays.equals(keys.get(keys.size() - 1), last)) {
          problems.add("block " + HexFormat.of().formatHex(last) + " is not keyed by its last key");
        }
        if (count == null || readInt(count) != keys.size()) {
          problems.add("block " + HexFormat.of().formatHex(last) + " has a wrong count record");
        }
        if (previousLast != null
            && !keys.isEmpty()
            && Arrays.compareUnsigned(keys.get(0), previousLast) <= 0) {
          problems.add("block " + HexFormat.of().formatHex(last) + " overlaps the one before");
        }
        previousLast = last;
        stored.addAll(keys);
      }
    }
    int i = 0;
    int j = 0;
    while (i < expected.size() || j < stored.size()) {
      int c =
          i == expected.size()
              ? 1
              : j == stored.size() ? -1 : Arrays.compareUnsigned(expected.get(i), stored.get(j));
      if (c < 0) {
        problems.add("entry " + idOf(expected.get(i++)) + " is missing");
      } else if (c > 0) {
        problems.add("entry " + idOf(stored.get(j++)) + " is listed but should not be");
      } else {
        i++;
        j++;
      }
    }
    return problems;
  }

  // ---------------------------------------------------------------- records

  private List<Block> loadSummary() throws RocksDBException {
    List<Block> summary = new ArrayList<>();
    try (RocksIterator it = newIterator()) {
      for (it.seek(new byte[] {COUNT}); it.isValid() && it.key()[0] == COUNT; it.next()) {
        byte[] last = Arrays.copyOfRange(it.key(), 1, it.key().length);
        summary.add(new Block(last, last, readInt(it.value())));
      }
      it.status();
    }
    return List.copyOf(summary);
  }

  private List<byte[]> readBlock(byte[] stored) throws RocksDBException {
    if (stored == null) {
      return List.of();
    }
    byte[] value = db.get(handle, record(BLOCK, stored));
    return value == null ? List.of() : decodeBlock(value);
  }

  private static byte[] record(byte kind, byte[] last) {
    byte[] key = new byte[last.length + 1];
    key[0] = kind;
    System.arraycopy(last, 0, key, 1, last.length);
    return key;
  }

  private static byte[] encodeBlock(List<byte[]> keys) {
    int size = Varint.size(keys.size());
    for (byte[] key : keys) {
      size += Varint.size(key.length) + key.length;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    Varint.write(out, keys.size());
    for (byte[] key : keys) {
      Varint.write(out, key.length);
      out.put(key);
    }
    return out.array();
  }

  private static List<byte[]> decodeBlock(byte[] value) {
    ByteBuffer in = ByteBuffer.wrap(value);
    int count = (int) Varint.read(in);
    List<byte[]> keys = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      byte[] key = new byte[(int) Varint.read(in)];
      in.get(key);
      keys.add(key);
    }
    return keys;
  }

  private static byte[] intBytes(int value) {
    return new byte[] {
      (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value
    };
  }

  private static int readInt(byte[] b) {
    return ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
  }
}
