package io.rockds.tools.backendstat;

import java.util.HexFormat;

/** Bytes as {@code hexdump -C} shows them: 16 per line, hex then printable ASCII. */
final class HexDump {
  private static final int PER_LINE = 16;

  private HexDump() {}

  static String lines(byte[] bytes, String indent) {
    StringBuilder sb = new StringBuilder();
    for (int start = 0; start < bytes.length; start += PER_LINE) {
      int end = Math.min(start + PER_LINE, bytes.length);
      StringBuilder hex = new StringBuilder();
      StringBuilder ascii = new StringBuilder();
      for (int i = start; i < end; i++) {
        hex.append(HexFormat.of().toHexDigits(bytes[i])).append(i - start == 7 ? "  " : " ");
        ascii.append(bytes[i] >= 0x20 && bytes[i] < 0x7f ? (char) bytes[i] : '.');
      }
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(indent).append(String.format("%-49s", hex)).append(' ').append(ascii);
    }
    return sb.toString();
  }

  static String line(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
