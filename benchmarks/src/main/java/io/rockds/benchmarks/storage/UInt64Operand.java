package io.rockds.benchmarks.storage;

/**
 * The value format of RocksDB's built-in {@code UInt64AddOperator}: 8 bytes, little-endian ({@code
 * EncodeFixed64}). A decrement is the two's complement, so merging {@code -1} wraps the sum down by
 * one.
 */
final class UInt64Operand {

  static final byte[] PLUS_ONE = encode(1);

  private UInt64Operand() {}

  static byte[] encode(long value) {
    byte[] out = new byte[8];
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (value >>> (8 * i));
    }
    return out;
  }

  static long decode(byte[] value) {
    if (value.length != 8) {
      throw new IllegalArgumentException("counter value: " + value.length + " bytes (expected: 8)");
    }
    long result = 0;
    for (int i = 7; i >= 0; i--) {
      result = (result << 8) | (value[i] & 0xFF);
    }
    return result;
  }
}
