package io.rockds.benchmarks.storage;

import java.util.Arrays;

/**
 * ID set as {@code varint(count)} followed by {@code varint(id[0])} and {@code varint(id[i] -
 * id[i-1])}: unsigned LEB128, 7 bits per byte, so IDs spread over a million entries cost about two
 * bytes each. The leading count lets backendstat read a set's size without decoding it.
 */
final class DeltaVarintCodec implements IdSetCodec {

  @Override
  public byte[] encode(long[] sortedIds) {
    byte[] out = new byte[10 * (sortedIds.length + 1)];
    int pos = writeVarint(out, 0, sortedIds.length);
    long previous = 0;
    for (long id : sortedIds) {
      pos = writeVarint(out, pos, id - previous);
      previous = id;
    }
    return Arrays.copyOf(out, pos);
  }

  @Override
  public byte[] add(byte[] encoded, long id) {
    long[] ids = encoded == null ? new long[0] : decodeIds(encoded);
    int at = Arrays.binarySearch(ids, id);
    if (at >= 0) {
      return encoded;
    }
    int insertAt = -at - 1;
    long[] grown = new long[ids.length + 1];
    System.arraycopy(ids, 0, grown, 0, insertAt);
    grown[insertAt] = id;
    System.arraycopy(ids, insertAt, grown, insertAt + 1, ids.length - insertAt);
    return encode(grown);
  }

  @Override
  public int size(byte[] encoded) {
    return (int) readVarint(encoded, new int[] {0});
  }

  @Override
  public IndexRead decode(byte[] encoded) {
    return new IndexRead.Ids(decodeIds(encoded));
  }

  static long[] decodeIds(byte[] encoded) {
    int[] pos = {0};
    long[] ids = new long[(int) readVarint(encoded, pos)];
    long previous = 0;
    for (int i = 0; i < ids.length; i++) {
      previous += readVarint(encoded, pos);
      ids[i] = previous;
    }
    return ids;
  }

  private static int writeVarint(byte[] out, int pos, long value) {
    while ((value & ~0x7FL) != 0) {
      out[pos++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out[pos++] = (byte) value;
    return pos;
  }

  private static long readVarint(byte[] in, int[] pos) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = in[pos[0]++];
      value |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("varint longer than 10 bytes at offset " + pos[0]);
  }
}
