package io.rockds.storage;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The compact, versioned encoding of an entry in {@code id2entry}.
 *
 * <pre>
 *   0x01 (format version)
 *   varint(len) DN as UTF-8
 *   varint(attribute count)
 *   per attribute: varint(description id) varint(value count) per value: varint(len) bytes
 * </pre>
 *
 * An entry with attributes stored apart ({@link Id2Values}: member, uniqueMember, and the binary
 * types such as jpegPhoto and userCertificate) has version {@code 0x03}: the same, followed by
 * {@code varint(count)} and, for each attribute whose values are in {@code id2values}, {@code
 * varint(description id) varint(key count)} and each key as {@code varint(len) bytes}: the keys of
 * its values (a photo's digest), so that a reader fetches them by point reads, or none (count 0)
 * for the members of a group, read as a key range. Version {@code 0x02}, written before keys were
 * listed, has the description ids alone and reads as a version 3 record listing no keys. An entry
 * without such attributes is written in version 1, as before; a record holding such values inline
 * (written before they were stored apart: members before version 2, photos and certificates before
 * they joined them) reads as it always did, and is rewritten with them apart at its next write.
 *
 * <p>Attribute descriptions are {@link AttributeDictionary} ids; values are stored as raw bytes, so
 * binary values (jpegPhoto, certificates) and UTF-8 round-trip exactly.
 */
final class EntryCodec {
  static final byte VERSION_1 = 0x01;
  static final byte VERSION_2 = 0x02;
  static final byte VERSION_3 = 0x03;

  private static final byte[][] NO_KEYS = new byte[0][];

  private final AttributeDictionary dictionary;

  EntryCodec(AttributeDictionary dictionary) {
    this.dictionary = dictionary;
  }

  /**
   * Encodes an entry's record: its attributes but those stored apart, and {@code apart}, the list
   * of those (with their keys) the caller worked out, whose values it writes to {@code id2values}.
   */
  byte[] encode(Entry entry, List<StoredEntry.Apart> apart, WriteBatch batch)
      throws RocksDBException {
    byte[] dn = entry.getDN().getBytes(StandardCharsets.UTF_8);
    List<Attribute> inline = new ArrayList<>(entry.getAttributes().size());
    for (Attribute attribute : entry.getAttributes()) {
      if (!Id2Values.isApart(attribute.getName())) {
        inline.add(attribute);
      }
    }
    int size = 1 + Varint.size(dn.length) + dn.length + Varint.size(inline.size());
    int[] descIds = new int[inline.size()];
    int a = 0;
    for (Attribute attribute : inline) {
      descIds[a] = dictionary.idOf(attribute.getName(), batch);
      size += Varint.size(descIds[a]) + Varint.size(attribute.size());
      for (ASN1OctetString value : attribute.getRawValues()) {
        int len = value.getValueLength();
        size += Varint.size(len) + len;
      }
      a++;
    }
    if (!apart.isEmpty()) {
      size += Varint.size(apart.size());
      for (StoredEntry.Apart listed : apart) {
        byte[][] keys = listed.keys() == null ? NO_KEYS : listed.keys();
        size += Varint.size(listed.descriptionId()) + Varint.size(keys.length);
        for (byte[] key : keys) {
          size += Varint.size(key.length) + key.length;
        }
      }
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.put(apart.isEmpty() ? VERSION_1 : VERSION_3);
    Varint.write(out, dn.length);
    out.put(dn);
    Varint.write(out, inline.size());
    a = 0;
    for (Attribute attribute : inline) {
      Varint.write(out, descIds[a++]);
      ASN1OctetString[] values = attribute.getRawValues();
      Varint.write(out, values.length);
      for (ASN1OctetString value : values) {
        writeBytes(out, value.getValue());
      }
    }
    if (!apart.isEmpty()) {
      Varint.write(out, apart.size());
      for (StoredEntry.Apart listed : apart) {
        byte[][] keys = listed.keys() == null ? NO_KEYS : listed.keys();
        Varint.write(out, listed.descriptionId());
        Varint.write(out, keys.length);
        for (byte[] key : keys) {
          writeBytes(out, key);
        }
      }
    }
    return out.array();
  }

  private static void writeBytes(ByteBuffer out, byte[] bytes) {
    Varint.write(out, bytes.length);
    out.put(bytes);
  }

  /** The description id of an attribute stored apart (recorded at once if new). */
  int descriptionId(String description, WriteBatch batch) throws RocksDBException {
    return dictionary.idOf(description, batch);
  }

  /**
   * A decoded record: its DN, the attributes decoded from it, whether the projection left some out
   * ({@code partial}), and the attributes whose values are stored apart.
   */
  record Decoded(
      String dn,
      List<Attribute> attributes,
      boolean withOptions,
      int recordBytes,
      int valueCount,
      boolean partial,
      List<StoredEntry.Apart> apart) {}

  /**
   * Decodes an entry; damaged bytes give an {@link IllegalArgumentException} naming the damage,
   * never an allocation sized by a corrupt length.
   */
  Decoded decode(byte[] encoded) {
    return decode(encoded, null);
  }

  /**
   * Decodes the DN and only the attributes {@code projection} keeps (all when it is null): {@link
   * Decoded#partial} when it left some out. The values stored apart are not read here.
   */
  Decoded decode(byte[] encoded, AttributeProjection projection) {
    return decode(encoded, projection, null);
  }

  /**
   * The whole entry of a partial one, from the record it was decoded from: the attributes it left
   * out are decoded now, those it holds are taken as they are, in the record's order.
   */
  Decoded complete(PartialEntry partial) {
    return decode(partial.record(), partial.projection(), partial.decoded().iterator());
  }

  /**
   * With {@code decoded}, the attributes {@code projection} keeps are taken from it instead of
   * being decoded again (completing a partial entry).
   */
  private Decoded decode(
      byte[] encoded, AttributeProjection projection, Iterator<Attribute> decoded) {
    try {
      return decodeChecked(ByteBuffer.wrap(encoded), projection, decoded);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException(
          "corrupt entry: truncated after " + encoded.length + " bytes", e);
    }
  }

  private Decoded decodeChecked(
      ByteBuffer in, AttributeProjection projection, Iterator<Attribute> decoded) {
    byte version = checkVersion(in.get());
    String dn = readString(in);
    // Each attribute takes at least two bytes, each value at least one: a larger count is corrupt.
    int attributeCount = readCount(in, 2);
    List<Attribute> attributes = new ArrayList<>(attributeCount);
    boolean withOptions = false;
    boolean partial = false;
    int totalValues = 0;
    for (int i = 0; i < attributeCount; i++) {
      int id = readId(in);
      String name = dictionary.nameOf(id);
      int valueCount = readCount(in, 1);
      boolean kept = projection == null || projection.keeps(name);
      // A partial decode skips the attributes the projection drops; completing one skips those it
      // kept, which the partial entry holds already.
      boolean skipped = decoded != null ? kept : !kept;
      if (skipped) {
        for (int v = 0; v < valueCount; v++) {
          int length = readCount(in, 1);
          in.position(in.position() + length);
        }
        if (decoded == null) {
          partial = true;
          continue;
        }
        attributes.add(decoded.next());
      } else {
        // The values stay slices of the record: no copy, and a cached entry holds one array, not
        // one per value.
        ASN1OctetString[] values = new ASN1OctetString[valueCount];
        for (int v = 0; v < valueCount; v++) {
          int length = readCount(in, 1);
          values[v] = new ASN1OctetString(in.array(), in.position(), length);
          in.position(in.position() + length);
        }
        attributes.add(new Attribute(name, values));
      }
      withOptions |= name.indexOf(';') >= 0;
      totalValues += valueCount;
    }
    List<StoredEntry.Apart> apart = readApart(in, version);
    for (StoredEntry.Apart a : apart) {
      withOptions |= a.description().indexOf(';') >= 0;
    }
    return new Decoded(dn, attributes, withOptions, in.limit(), totalValues, partial, apart);
  }

  /**
   * The record to be sent as stored ({@link EntryRecord}), checked whole now so that visiting it
   * cannot fail; it lists the attributes it stores apart, whose values the caller reads. Damaged
   * bytes give an {@link IllegalArgumentException}, as in {@link #decode}.
   */
  EntryRecord record(byte[] encoded) {
    ByteBuffer in = ByteBuffer.wrap(encoded);
    try {
      byte version = checkVersion(in.get());
      int dnLength = readCount(in, 1);
      int dnOffset = in.position();
      in.position(dnOffset + dnLength);
      int attributeCount = readCount(in, 2);
      int attributesOffset = in.position();
      int valueCount = 0;
      for (int i = 0; i < attributeCount; i++) {
        dictionary.nameOf(readId(in));
        int values = readCount(in, 1);
        for (int v = 0; v < values; v++) {
          int length = readCount(in, 1);
          in.position(in.position() + length);
        }
        valueCount += values;
      }
      List<StoredEntry.Apart> apart = readApart(in, version);
      return new EntryRecord(
          encoded,
          dnOffset,
          dnLength,
          attributesOffset,
          attributeCount,
          valueCount,
          dictionary,
          apart,
          List.of());
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException(
          "corrupt entry: truncated after " + encoded.length + " bytes", e);
    }
  }

  /**
   * The list ending a version 2 or 3 record: the attributes whose values are stored apart, with the
   * keys a version 3 record lists.
   */
  private List<StoredEntry.Apart> readApart(ByteBuffer in, byte version) {
    if (version == VERSION_1) {
      return List.of();
    }
    int apartCount = readCount(in, 1);
    List<StoredEntry.Apart> apart = new ArrayList<>(apartCount);
    for (int i = 0; i < apartCount; i++) {
      int id = readId(in);
      byte[][] keys = null;
      if (version == VERSION_3) {
        int keyCount = readCount(in, 1);
        if (keyCount > 0) {
          keys = new byte[keyCount][];
          for (int k = 0; k < keyCount; k++) {
            int length = readCount(in, 1);
            keys[k] = new byte[length];
            in.get(keys[k]);
          }
        }
      }
      apart.add(new StoredEntry.Apart(id, dictionary.nameOf(id), keys));
    }
    return apart;
  }

  private static byte checkVersion(byte version) {
    if (version != VERSION_1 && version != VERSION_2 && version != VERSION_3) {
      throw new IllegalArgumentException("unknown entry encoding version " + version);
    }
    return version;
  }

  /**
   * The DN of an encoded entry from its first {@code length} bytes, without decoding the
   * attributes; null when those bytes end before the DN does.
   */
  String decodeDn(byte[] encoded, int length) {
    ByteBuffer in = ByteBuffer.wrap(encoded, 0, length);
    try {
      checkVersion(in.get());
      long dnLength = Varint.read(in);
      if (dnLength < 0 || dnLength > in.remaining()) {
        return null;
      }
      return new String(encoded, in.position(), (int) dnLength, StandardCharsets.UTF_8);
    } catch (BufferUnderflowException e) {
      return null;
    }
  }

  /**
   * A count or length of things taking at least {@code bytesEach} bytes each, checked against what
   * is left.
   */
  private static int readCount(ByteBuffer in, int bytesEach) {
    long count = Varint.read(in);
    long max = in.remaining() / bytesEach;
    if (count < 0 || count > max) {
      throw new IllegalArgumentException(
          "corrupt entry: count or length "
              + count
              + " exceeds the "
              + in.remaining()
              + " bytes left");
    }
    return (int) count;
  }

  private static int readId(ByteBuffer in) {
    long id = Varint.read(in);
    if (id < 0 || id > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("corrupt entry: attribute description id " + id);
    }
    return (int) id;
  }

  private static String readString(ByteBuffer in) {
    int len = readCount(in, 1);
    String s = new String(in.array(), in.position(), len, StandardCharsets.UTF_8);
    in.position(in.position() + len);
    return s;
  }
}
