package io.rockds.storage;

import java.nio.ByteBuffer;

/** Unsigned LEB128 variable-length integers, the building block of compact values here. */
final class Varint {
  private Varint() {}

  static void write(ByteBuffer out, long value) {
    while ((value & ~0x7FL) != 0) {
      out.put((byte) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.put((byte) value);
  }

  static long read(ByteBuffer in) {
    long value = 0;
    int shift = 0;
    while (true) {
      if (shift > 63) {
        throw new IllegalArgumentException("varint longer than 10 bytes");
      }
      byte b = in.get();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
      shift += 7;
    }
  }

  static int size(long value) {
    int size = 1;
    while ((value & ~0x7FL) != 0) {
      value >>>= 7;
      size++;
    }
    return size;
  }
}
