package io.rockds.storage;

import java.nio.charset.StandardCharsets;

/**
 * Order-preserving byte encodings for ordering indexes, so that RocksDB's bytewise order is the
 * matching rule's order and {@code >=} / {@code <=} become key ranges.
 */
final class OrderingKeys {
  private OrderingKeys() {}

  /**
   * A decimal integer of any size: a sign byte ({@code 0x00} negative, {@code 0x01} zero or
   * positive), then the digit count as 4 bytes and the digits, with everything after the sign
   * inverted for negatives so that larger magnitudes sort first.
   */
  static byte[] integer(String normalized) {
    String s = normalized.trim();
    boolean negative = s.startsWith("-");
    String digits = (negative || s.startsWith("+")) ? s.substring(1) : s;
    int firstNonZero = 0;
    while (firstNonZero < digits.length() - 1 && digits.charAt(firstNonZero) == '0') {
      firstNonZero++;
    }
    digits = digits.substring(firstNonZero);
    for (int i = 0; i < digits.length(); i++) {
      if (!Character.isDigit(digits.charAt(i))) {
        throw new NumberFormatException("not an integer: " + normalized);
      }
    }
    if (digits.equals("0")) {
      negative = false;
    }
    byte[] d = digits.getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[1 + 4 + d.length];
    out[0] = (byte) (negative ? 0x00 : 0x01);
    int len = d.length;
    out[1] = (byte) (len >>> 24);
    out[2] = (byte) (len >>> 16);
    out[3] = (byte) (len >>> 8);
    out[4] = (byte) len;
    System.arraycopy(d, 0, out, 5, d.length);
    if (negative) {
      for (int i = 1; i < out.length; i++) {
        out[i] = (byte) ~out[i];
      }
    }
    return out;
  }
}
