package io.rockds.server.logging;

/** Just enough JSON writing for log lines: string and number members followed by a comma. */
final class Json {
  private Json() {}

  static void field(StringBuilder sb, String name, String value) {
    string(sb, name);
    sb.append(':');
    string(sb, value);
    sb.append(',');
  }

  static void number(StringBuilder sb, String name, long value) {
    string(sb, name);
    sb.append(':').append(value).append(',');
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
