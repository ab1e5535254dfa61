package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;

/**
 * {@code id2entry}: entry ID (8 bytes, big-endian, so IDs sort numerically) to the entry encoded by
 * {@link EntryCodec}, whose attributes stored apart have their values in {@link Id2Values}. Reads
 * here join the two; writes change both in the caller's batch.
 */
public final class Id2Entry extends IdKeyedTree {
  /** Enough for the version byte, the DN's length and almost any DN. */
  private static final int DN_HEAD_BYTES = 512;

  private static final AttributeProjection NOTHING = new AttributeProjection(description -> false);

  private final EntryCodec codec;
  private final Id2Values values;
  private final ReadOptions memoryOnly;

  /**
   * @param memoryOnly options reading the block cache and memtables only, for {@link
   *     ReadFrom#MEMORY}; the backend owns and closes them
   */
  Id2Entry(
      RocksDB db,
      ColumnFamilyHandle handle,
      String rawPrefix,
      EntryCodec codec,
      Id2Values values,
      ReadOptions memoryOnly) {
    super(db, handle, "id2entry", rawPrefix + "id2entry");
    this.codec = codec;
    this.values = values;
    this.memoryOnly = memoryOnly;
  }

  /** The record of entry {@code id}, or null; read from memory only if {@code from} says so. */
  private byte[] read(byte[] key, ReadFrom from) throws RocksDBException {
    return from == ReadFrom.MEMORY ? db.get(handle, memoryOnly, key) : db.get(handle, key);
  }

  /**
   * The values stored apart from the entries (null only in a database older than them, read-only).
   */
  public Id2Values values() {
    return values;
  }

  /** The whole entry, values apart included, or null. */
  StoredEntry get(long id) throws RocksDBException {
    return get(id, (AttributeProjection) null);
  }

  /**
   * The entry with only the attributes {@code projection} keeps (all when null), values apart
   * included for those it keeps, or null.
   */
  StoredEntry get(long id, AttributeProjection projection) throws RocksDBException {
    return get(id, projection, ReadFrom.ANYWHERE);
  }

  private StoredEntry get(long id, AttributeProjection projection, ReadFrom from)
      throws RocksDBException {
    byte[] key = Bytes.longKey(id);
    byte[] value = read(key, from);
    if (value == null || !readsValuesApart(value, projection)) {
      return value == null ? null : entry(id, value, projection, values::raw, latest(from));
    }
    return byListedKeysElseOneSnapshot(
        key,
        value,
        from,
        (record, reader, options) -> entry(id, record, projection, reader, options));
  }

  /** The options of a read of the latest state: from memory only if {@code from} says so. */
  private ReadOptions latest(ReadFrom from) {
    return from == ReadFrom.MEMORY ? memoryOnly : null;
  }

  /**
   * {@code read} of {@code record} with its values apart read by the keys it lists; when that gives
   * up (no keys listed, as for a group's members, or one gone: the entry changed since its record
   * was read), {@code read} again of the record and its values from one snapshot, since a write
   * between two reads would tear them. Reads from memory only if {@code from} says so.
   */
  private <T> T byListedKeysElseOneSnapshot(
      byte[] key, byte[] record, ReadFrom from, RecordRead<T> read) throws RocksDBException {
    T byListedKeys = read.apply(record, values::listed, latest(from));
    if (byListedKeys != null) {
      return byListedKeys;
    }
    Snapshot snapshot = db.getSnapshot();
    try (ReadOptions options =
        (from == ReadFrom.MEMORY ? new ReadOptions(memoryOnly) : new ReadOptions())
            .setSnapshot(snapshot)) {
      byte[] now = db.get(handle, options, key);
      return now == null ? null : read.apply(now, values::raw, options);
    } finally {
      db.releaseSnapshot(snapshot);
    }
  }

  /** Reads something of a record with its values apart, or gives up with null. */
  @FunctionalInterface
  private interface RecordRead<T> {
    T apply(byte[] record, ValuesReader reader, ReadOptions options) throws RocksDBException;
  }

  /**
   * Whether reading this record with {@code projection} reads values apart: a user's projected
   * read, which leaves its photo out, needs no snapshot and no second read of its record.
   */
  private boolean readsValuesApart(byte[] record, AttributeProjection projection) {
    if (record.length == 0 || record[0] == EntryCodec.VERSION_1) {
      return false;
    }
    if (projection == null) {
      return true;
    }
    for (StoredEntry.Apart a : codec.decode(record, NOTHING).apart()) {
      if (projection.keeps(a.description())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The record of entry {@code id} to be sent as stored with its values apart, or null when there
   * is no such entry or it stores apart the members of a group, which may be millions (see {@link
   * EntryCodec#record}).
   */
  EntryRecord record(long id, ReadFrom from) throws RocksDBException {
    byte[] key = Bytes.longKey(id);
    byte[] value = read(key, from);
    EntryRecord record = value == null ? null : codec.record(value);
    if (record == null || record.apart().isEmpty()) {
      return record;
    }
    if (!boundedApart(record)) {
      return null;
    }
    return byListedKeysElseOneSnapshot(
        key,
        value,
        from,
        (bytes, reader, options) -> {
          // The record decoded already, or the one read again from the snapshot.
          EntryRecord read = bytes == value ? record : codec.record(bytes);
          return boundedApart(read) ? withValuesApart(id, read, reader, options) : null;
        });
  }

  /** The record with its values apart read by {@code reader}; null if the reader gave up. */
  private static EntryRecord withValuesApart(
      long id, EntryRecord record, ValuesReader reader, ReadOptions options)
      throws RocksDBException {
    List<EntryRecord.ValuesApart> read = new ArrayList<>(record.apart().size());
    for (StoredEntry.Apart a : record.apart()) {
      List<byte[]> all = reader.read(id, a, options);
      if (all == null) {
        return null;
      }
      if (!all.isEmpty()) {
        read.add(new EntryRecord.ValuesApart(a.description(), all));
      }
    }
    return record.withValuesApart(read);
  }

  /**
   * Reads the values of one attribute stored apart ({@link Id2Values#raw}, or {@link
   * Id2Values#listed}, which gives up with null when the record's keys cannot be read as listed).
   */
  @FunctionalInterface
  private interface ValuesReader {
    List<byte[]> read(long id, StoredEntry.Apart apart, ReadOptions options)
        throws RocksDBException;
  }

  /** Whether every attribute the record stores apart is binary: a few values, never millions. */
  private static boolean boundedApart(EntryRecord record) {
    return record.apart().stream().allMatch(a -> Id2Values.isBinary(a.description()));
  }

  /**
   * The entry without the values of its attributes stored apart (it says which it lacks), or null:
   * what the entry cache holds.
   */
  StoredEntry withoutValuesApart(long id, ReadFrom from) throws RocksDBException {
    return withoutValuesApart(id, null, from);
  }

  /**
   * {@link #withoutValuesApart(long)} with only the attributes {@code projection} keeps (all when
   * null): one point read, whatever the number of values stored apart.
   */
  StoredEntry withoutValuesApart(long id, AttributeProjection projection, ReadFrom from)
      throws RocksDBException {
    byte[] value = read(Bytes.longKey(id), from);
    return value == null ? null : entry(id, value, projection, null, null);
  }

  /**
   * The whole entry of a partial one or of one lacking values apart: the attributes left out
   * decoded from the record it was read from, the values apart it lacks read now.
   */
  StoredEntry complete(StoredEntry entry) {
    try {
      return complete(entry, ReadFrom.ANYWHERE);
    } catch (RocksDBException e) {
      throw new IllegalStateException(
          "cannot read the values of entry " + entry.stored().id() + ": " + e, e);
    }
  }

  /**
   * {@link #complete(StoredEntry)}, the values apart read from memory only if {@code from} says so:
   * NOT_IN_MEMORY when one is on disk.
   */
  StoredEntry complete(StoredEntry entry, ReadFrom from) throws RocksDBException {
    List<Attribute> attributes;
    boolean withOptions;
    int bytes;
    if (entry instanceof PartialEntry partial) {
      EntryCodec.Decoded whole = codec.complete(partial);
      attributes = new ArrayList<>(whole.attributes());
      for (StoredEntry.Apart a : entry.apart()) {
        Attribute read = entry.lacking().contains(a) ? null : entry.getAttribute(a.description());
        if (read != null) {
          attributes.add(read);
        }
      }
      withOptions = whole.withOptions();
      bytes = whole.recordBytes();
    } else {
      attributes = new ArrayList<>(entry.getAttributes());
      withOptions = entry.hasAttributeOptions();
      bytes = entry.footprint();
    }
    int read = 0;
    long id = entry.stored().id();
    ReadOptions options = latest(from);
    for (StoredEntry.Apart a : entry.lacking()) {
      List<byte[]> all =
          a.keys() == null ? values.raw(id, a, options) : values.listed(id, a, options);
      if (all == null) {
        // A value the record lists is gone: the entry changed since its record was read. Read it
        // again, whole, so that its values apart belong with its other attributes.
        return get(id, null, from);
      }
      if (!all.isEmpty()) {
        attributes.add(new Attribute(a.description(), all.toArray(byte[][]::new)));
        read += all.size();
      }
    }
    return new StoredEntry(
        entry.getDN(), attributes, withOptions, bytes, read, entry.stored().lacking(List.of()));
  }

  /**
   * The DN of the entry with this ID, or null, without decoding the attributes: only the head of
   * the record is copied out of RocksDB.
   */
  String dn(long id, ReadFrom from) throws RocksDBException {
    byte[] key = Bytes.longKey(id);
    byte[] head = new byte[DN_HEAD_BYTES];
    int size =
        from == ReadFrom.MEMORY ? db.get(handle, memoryOnly, key, head) : db.get(handle, key, head);
    if (size == RocksDB.NOT_FOUND) {
      return null;
    }
    String dn = codec.decodeDn(head, Math.min(size, head.length));
    if (dn != null) {
      return dn;
    }
    byte[] value = read(key, from);
    if (value == null) {
      return null;
    }
    dn = codec.decodeDn(value, value.length);
    if (dn == null) {
      throw new IllegalArgumentException("corrupt entry " + id + ": truncated in its DN");
    }
    return dn;
  }

  /** The whole entry with this ID as seen by {@code options} (e.g. a snapshot), or null. */
  public Entry get(long id, ReadOptions options) throws RocksDBException {
    byte[] value = db.get(handle, options, Bytes.longKey(id));
    return value == null ? null : decode(id, value, options);
  }

  /**
   * The whole entry of a raw record read through {@link #newIterator}, its values apart read with
   * the same {@code options} (null: the latest state).
   */
  public Entry decode(long id, byte[] record, ReadOptions options) {
    try {
      return entry(id, record, null, values::raw, options);
    } catch (RocksDBException e) {
      throw new IllegalStateException("cannot read the values of entry " + id + ": " + e, e);
    }
  }

  /**
   * The entry of a record, with the values apart {@code reader} reads of the attributes {@code
   * projection} keeps (none read without a reader: the entry lacks them); null if the reader gave
   * up.
   */
  private StoredEntry entry(
      long id,
      byte[] record,
      AttributeProjection projection,
      ValuesReader reader,
      ReadOptions options)
      throws RocksDBException {
    EntryCodec.Decoded decoded = codec.decode(record, projection);
    List<Attribute> attributes = decoded.attributes();
    List<StoredEntry.Apart> lacking = new ArrayList<>(0);
    int bytes = decoded.recordBytes();
    int count = decoded.valueCount();
    if (!decoded.apart().isEmpty()) {
      attributes = new ArrayList<>(attributes);
      for (StoredEntry.Apart a : decoded.apart()) {
        if (reader == null || (projection != null && !projection.keeps(a.description()))) {
          lacking.add(a);
          continue;
        }
        List<byte[]> all = reader.read(id, a, options);
        if (all == null) {
          return null;
        }
        if (!all.isEmpty()) {
          attributes.add(new Attribute(a.description(), all.toArray(byte[][]::new)));
          count += all.size();
          for (byte[] v : all) {
            bytes += v.length;
          }
        }
      }
    }
    StoredEntry.Stored stored =
        decoded.apart().isEmpty()
            ? StoredEntry.Stored.NONE
            : new StoredEntry.Stored(id, decoded.apart(), List.copyOf(lacking), values);
    return decoded.partial()
        ? new PartialEntry(
            decoded.dn(),
            decoded.attributes(),
            attributes,
            decoded.withOptions(),
            record,
            projection,
            stored)
        : new StoredEntry(decoded.dn(), attributes, decoded.withOptions(), bytes, count, stored);
  }

  /**
   * The entry as a modify needs it: of each attribute stored apart, only the values equal to one of
   * {@code named} (those of the same description), plus one other standing for all the rest when
   * there are others. Point reads: one per named value and a few more. See {@link ModifyView}.
   */
  ModifyView view(long id, Collection<Attribute> named) throws RocksDBException, LDAPException {
    byte[] record = db.get(handle, Bytes.longKey(id));
    if (record == null) {
      return null;
    }
    StoredEntry head = entry(id, record, null, null, null);
    List<Attribute> attributes = new ArrayList<>(head.getAttributes());
    Map<Integer, byte[]> standIns = new HashMap<>();
    for (StoredEntry.Apart a : head.apart()) {
      Set<ByteBuffer> keys = new HashSet<>();
      List<byte[]> seen = new ArrayList<>();
      for (Attribute n : named) {
        if (!n.getName().equalsIgnoreCase(a.description())) {
          continue;
        }
        for (byte[] value : n.getValueByteArrays()) {
          byte[] key = values.valueKey(a.description(), value);
          if (keys.add(ByteBuffer.wrap(key))) {
            byte[] stored = values.findForWrite(id, a.descriptionId(), a.description(), value, key);
            if (stored != null) {
              seen.add(stored);
            }
          }
        }
      }
      byte[][] other = values.firstOther(id, a, keys);
      if (other != null) {
        seen.add(other[1]);
        standIns.put(a.descriptionId(), other[0]);
      }
      if (!seen.isEmpty()) {
        attributes.add(new Attribute(a.description(), seen.toArray(byte[][]::new)));
      }
    }
    StoredEntry entry =
        new StoredEntry(
            head.getDN(),
            attributes,
            head.hasAttributeOptions(),
            record.length,
            0,
            head.stored().lacking(List.of()));
    return new ModifyView(entry, standIns, this);
  }

  /**
   * The description ids of the attributes the record of entry {@code id} stores apart, or null when
   * there is no such entry.
   */
  public Set<Integer> descriptionsApart(long id, ReadOptions options) throws RocksDBException {
    byte[] record = db.get(handle, options, Bytes.longKey(id));
    if (record == null) {
      return null;
    }
    Set<Integer> ids = new HashSet<>();
    for (StoredEntry.Apart a : codec.decode(record, NOTHING).apart()) {
      ids.add(a.descriptionId());
    }
    return ids;
  }

  /**
   * A new entry's record and the records of its values apart, keys without the entry ID
   * (description id and value key) in key order: what a bulk load writes after the ID.
   */
  public record NewEntry(byte[] record, List<byte[][]> valuesApart) {}

  /** Encodes a new entry (thread-safe; new attribute descriptions are recorded at once). */
  public NewEntry encodeNew(Entry entry) throws RocksDBException, LDAPException {
    List<ValuesByKey> apart = valuesByKey(entry, null);
    List<byte[][]> records = new ArrayList<>();
    for (ValuesByKey a : apart) {
      for (Map.Entry<ByteBuffer, byte[]> value : a.keyed().entrySet()) {
        byte[] key = Id2Values.key(0, a.apart().descriptionId(), value.getKey().array());
        records.add(new byte[][] {Arrays.copyOfRange(key, 8, key.length), value.getValue()});
      }
    }
    records.sort((x, y) -> Arrays.compareUnsigned(x[0], y[0]));
    return new NewEntry(codec.encode(entry, listed(apart), null), records);
  }

  /** Writes a new entry: its record and every value apart. */
  void put(WriteBatch batch, long id, Entry entry) throws RocksDBException, LDAPException {
    List<ValuesByKey> apart = valuesByKey(entry, batch);
    batch.put(handle, Bytes.longKey(id), codec.encode(entry, listed(apart), batch));
    for (ValuesByKey a : apart) {
      for (Map.Entry<ByteBuffer, byte[]> value : a.keyed().entrySet()) {
        values.put(batch, id, a.apart().descriptionId(), value.getKey().array(), value.getValue());
      }
    }
  }

  /** An attribute stored apart as a new record lists it, and its values by key. */
  private record ValuesByKey(StoredEntry.Apart apart, Map<ByteBuffer, byte[]> keyed) {}

  /** The attributes of {@code entry} stored apart, with values, as its new record lists them. */
  private List<ValuesByKey> valuesByKey(Entry entry, WriteBatch batch)
      throws RocksDBException, LDAPException {
    List<ValuesByKey> apart = new ArrayList<>(1);
    for (Attribute attribute : entry.getAttributes()) {
      String name = attribute.getName();
      if (Id2Values.isApart(name) && attribute.size() > 0) {
        Map<ByteBuffer, byte[]> keyed = values.keyed(name, attribute.getValueByteArrays());
        int descriptionId = codec.descriptionId(name, batch);
        apart.add(
            new ValuesByKey(
                new StoredEntry.Apart(
                    descriptionId, name, Id2Values.listedKeys(name, keyed.keySet())),
                keyed));
      }
    }
    return apart;
  }

  private static List<StoredEntry.Apart> listed(List<ValuesByKey> apart) {
    return apart.stream().map(ValuesByKey::apart).toList();
  }

  /**
   * Replaces entry {@code id}, {@code before} as stored ({@code stored} says which of its
   * attributes are apart), with {@code after}: the record, and of the values apart only those that
   * differ. {@code before} may hold some values apart only, as a {@link ModifyView} does, as long
   * as {@code after} holds of each such attribute either no value or the values of {@code before}
   * it keeps and those it adds. The attributes {@code stored} lacks (a subtree rename moving an
   * entry reads none) keep their values.
   */
  void update(WriteBatch batch, long id, StoredEntry stored, Entry before, Entry after)
      throws RocksDBException, LDAPException {
    Map<Integer, StoredEntry.Apart> kept = new LinkedHashMap<>();
    for (StoredEntry.Apart a : stored.lacking()) {
      kept.put(a.descriptionId(), a);
    }
    for (Attribute attribute : after.getAttributes()) {
      if (!Id2Values.isApart(attribute.getName()) || attribute.size() == 0) {
        continue;
      }
      String name = attribute.getName();
      int descriptionId = codec.descriptionId(name, batch);
      StoredEntry.Apart previous = null;
      for (StoredEntry.Apart a : stored.apart()) {
        if (a.descriptionId() == descriptionId) {
          previous = a;
        }
      }
      Map<ByteBuffer, byte[]> was = new HashMap<>();
      Attribute old = previous == null ? null : before.getAttribute(name);
      for (byte[] value : old == null ? new byte[0][] : old.getValueByteArrays()) {
        was.put(ByteBuffer.wrap(values.valueKey(name, value)), value);
      }
      Map<ByteBuffer, byte[]> keyed = values.keyed(name, attribute.getValueByteArrays());
      for (Map.Entry<ByteBuffer, byte[]> value : keyed.entrySet()) {
        byte[] written = value.getValue();
        byte[] replaced = was.remove(value.getKey());
        if (replaced != null && !values.sameValue(name, replaced, written)) {
          throw Id2Values.collision(name);
        }
        if (replaced == null || !Arrays.equals(replaced, written)) {
          values.put(batch, id, descriptionId, value.getKey().array(), written);
        }
      }
      for (ByteBuffer key : was.keySet()) {
        values.delete(batch, id, descriptionId, key.array());
      }
      kept.put(
          descriptionId,
          new StoredEntry.Apart(
              descriptionId, name, keysAfter(name, previous, keyed.keySet(), was.keySet())));
    }
    for (StoredEntry.Apart a : stored.apart()) {
      if (!kept.containsKey(a.descriptionId())) {
        values.deleteAll(batch, id, a.descriptionId());
      }
    }
    batch.put(handle, Bytes.longKey(id), codec.encode(after, List.copyOf(kept.values()), batch));
  }

  /**
   * The keys the record lists after an update of the attribute: those it listed, less the values
   * removed, plus those written; null when it listed none (the members of a group, or a record
   * written before keys were listed, which only a rewrite of the entry lists).
   */
  private static byte[][] keysAfter(
      String name, StoredEntry.Apart previous, Set<ByteBuffer> written, Set<ByteBuffer> removed) {
    if (previous == null) {
      return Id2Values.listedKeys(name, written);
    }
    if (previous.keys() == null) {
      return null;
    }
    Set<ByteBuffer> keys = new LinkedHashSet<>();
    for (byte[] key : previous.keys()) {
      keys.add(ByteBuffer.wrap(key));
    }
    keys.removeAll(removed);
    keys.addAll(written);
    return Id2Values.listedKeys(name, keys);
  }

  /** Deletes the entry's record and all its values apart. */
  @Override
  void delete(WriteBatch batch, long id) throws RocksDBException {
    super.delete(batch, id);
    values.deleteAll(batch, id);
  }

  @Override
  public String type() {
    return "ID2Entry";
  }

  /** The record as LDIF: the values stored apart are dumped with {@code id2values}. */
  @Override
  public String valueToString(byte[] value) {
    EntryCodec.Decoded decoded = codec.decode(value);
    StringBuilder ldif =
        new StringBuilder(new Entry(decoded.dn(), decoded.attributes()).toLDIFString());
    for (StoredEntry.Apart a : decoded.apart()) {
      ldif.append("# ").append(a.description()).append(": values in id2values\n");
    }
    return ldif.toString();
  }
}
