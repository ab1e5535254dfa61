package io.rockds.storage;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * An {@code id2entry} record read to be sent as it is stored: its DN's UTF-8 bytes and, attribute
 * by attribute in the stored order, the description and the values as slices of the record. No
 * entry is decoded: nothing is copied or allocated per attribute or value. The attributes stored
 * apart ({@link Id2Values}) come last, with their values as read from there (a photo is one more
 * read, no decode); the record was checked whole when it was read, so visiting it cannot fail.
 */
public final class EntryRecord {
  /** Receives the attributes of a record, in order. */
  public interface Visitor {
    /** An attribute; true to have its values visited next. */
    boolean attribute(String description);

    /** A value of the attribute last accepted: {@code length} bytes of {@code record}. */
    void value(byte[] record, int offset, int length);
  }

  private final byte[] record;
  private final int dnOffset;
  private final int dnLength;
  private final int attributesOffset;
  private final int attributeCount;
  private final int valueCount;
  private final AttributeDictionary dictionary;
  private final List<StoredEntry.Apart> apart;
  private final List<ValuesApart> valuesApart;

  /** The values of one attribute stored apart, as read from {@code id2values}. */
  record ValuesApart(String description, List<byte[]> values) {}

  EntryRecord(
      byte[] record,
      int dnOffset,
      int dnLength,
      int attributesOffset,
      int attributeCount,
      int valueCount,
      AttributeDictionary dictionary,
      List<StoredEntry.Apart> apart,
      List<ValuesApart> valuesApart) {
    this.record = record;
    this.dnOffset = dnOffset;
    this.dnLength = dnLength;
    this.attributesOffset = attributesOffset;
    this.attributeCount = attributeCount;
    this.valueCount = valueCount;
    this.dictionary = dictionary;
    this.apart = apart;
    this.valuesApart = valuesApart;
  }

  /** The attributes the record lists as stored apart. */
  List<StoredEntry.Apart> apart() {
    return apart;
  }

  /** This record with the values of its attributes stored apart, read by the caller. */
  EntryRecord withValuesApart(List<ValuesApart> read) {
    return new EntryRecord(
        record,
        dnOffset,
        dnLength,
        attributesOffset,
        attributeCount,
        valueCount,
        dictionary,
        apart,
        List.copyOf(read));
  }

  /** The record's bytes, of which the DN and the values are slices; never modify them. */
  public byte[] bytes() {
    return record;
  }

  /** Where the DN's UTF-8 bytes start in {@link #bytes}. */
  public int dnOffset() {
    return dnOffset;
  }

  public int dnLength() {
    return dnLength;
  }

  /**
   * What the entry would weigh decoded without its values apart, as the entry cache holds it
   * ({@link StoredEntry#footprint}), or a little more.
   */
  int footprint() {
    return StoredEntry.footprint(dnLength, record.length, attributeCount, valueCount);
  }

  /** Visits the attributes in the stored order. */
  public void visit(Visitor visitor) {
    ByteBuffer in = ByteBuffer.wrap(record);
    in.position(attributesOffset);
    for (int i = 0; i < attributeCount; i++) {
      String description = dictionary.nameOf((int) Varint.read(in));
      int values = (int) Varint.read(in);
      boolean wanted = visitor.attribute(description);
      for (int v = 0; v < values; v++) {
        int length = (int) Varint.read(in);
        if (wanted) {
          visitor.value(record, in.position(), length);
        }
        in.position(in.position() + length);
      }
    }
    for (ValuesApart a : valuesApart) {
      if (visitor.attribute(a.description())) {
        for (byte[] value : a.values()) {
          visitor.value(value, 0, value.length);
        }
      }
    }
  }
}
