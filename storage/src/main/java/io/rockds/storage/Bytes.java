package io.rockds.storage;

/** Fixed-width big-endian longs (keys that sort numerically) and little-endian counters. */
final class Bytes {
  private Bytes() {}

  static byte[] longKey(long value) {
    byte[] b = new byte[8];
    putLong(b, 0, value);
    return b;
  }

  /** Writes {@code value} as a {@link #longKey} at {@code offset}. */
  static void putLong(byte[] b, int offset, long value) {
    for (int i = 7; i >= 0; i--) {
      b[offset + i] = (byte) value;
      value >>>= 8;
    }
  }

  static long readLongKey(byte[] b, int offset) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[offset + i] & 0xFF);
    }
    return v;
  }

  /** The operand format of RocksDB's built-in UInt64AddOperator: 8 bytes, little-endian. */
  static byte[] counter(long delta) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) delta;
      delta >>>= 8;
    }
    return b;
  }

  static long readCounter(byte[] b) {
    if (b == null) {
      return 0;
    }
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (b[i] & 0xFF);
    }
    return v;
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] r = new byte[a.length + b.length];
    System.arraycopy(a, 0, r, 0, a.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  /** The smallest key greater than every key starting with {@code prefix}, or null if none. */
  static byte[] prefixEnd(byte[] prefix) {
    byte[] end = prefix.clone();
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xFF) {
        end[i]++;
        return java.util.Arrays.copyOf(end, i + 1);
      }
    }
    return null;
  }
}
