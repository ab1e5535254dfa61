package io.rockds.storage;

import java.nio.ByteBuffer;

/**
 * The value of an attribute-index record.
 *
 * <pre>
 *   defined:     0x01 varint(count) varint(first id) varint(delta)...   (ids ascending)
 *   over limit:  0xFF
 * </pre>
 *
 * Deltas keep a 4000-ID record of consecutive-ish IDs near 4-8 KB. The over-limit marker carries no
 * IDs; its exact count is kept apart (see {@link BackendState}) so that adding to a key that is
 * already over the limit is a blind counter merge, never a read-modify-write of the record.
 */
final class IdListCodec {
  static final byte DEFINED = 0x01;
  static final byte OVER_LIMIT = (byte) 0xFF;
  private static final byte[] OVER_LIMIT_VALUE = {OVER_LIMIT};

  private IdListCodec() {}

  static byte[] overLimit() {
    return OVER_LIMIT_VALUE;
  }

  static boolean isOverLimit(byte[] value) {
    return value != null && value.length > 0 && value[0] == OVER_LIMIT;
  }

  static byte[] encode(IdSet ids) {
    int size = ids.size();
    int bytes = 1 + Varint.size(size);
    long prev = 0;
    for (int i = 0; i < size; i++) {
      long id = ids.get(i);
      bytes += Varint.size(id - prev);
      prev = id;
    }
    ByteBuffer out = ByteBuffer.allocate(bytes);
    out.put(DEFINED);
    Varint.write(out, size);
    prev = 0;
    for (int i = 0; i < size; i++) {
      long id = ids.get(i);
      Varint.write(out, id - prev);
      prev = id;
    }
    return out.array();
  }

  /** Decodes a record; a missing record is the empty set, the marker an undefined set. */
  static IdSet decode(byte[] value) {
    if (value == null) {
      return IdSet.empty();
    }
    if (isOverLimit(value)) {
      return IdSet.undefined(IdSet.Undefined.LIMIT_EXCEEDED);
    }
    ByteBuffer in = ByteBuffer.wrap(value);
    byte format = in.get();
    if (format != DEFINED) {
      throw new IllegalArgumentException(
          "unknown index record format 0x" + Integer.toHexString(format & 0xFF));
    }
    int size = (int) Varint.read(in);
    long[] ids = new long[size];
    long prev = 0;
    for (int i = 0; i < size; i++) {
      prev += Varint.read(in);
      ids[i] = prev;
    }
    return IdSet.ofSorted(ids, size);
  }

  /** The number of IDs a defined record lists, read without decoding them. */
  static int count(byte[] value) {
    ByteBuffer in = ByteBuffer.wrap(value, 1, value.length - 1);
    return (int) Varint.read(in);
  }
}
