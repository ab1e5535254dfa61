package io.rockds.server.logging;

import com.unboundid.util.json.JSONString;

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

  /**
   * A JSON string literal, escaped by the SDK's JSON support (the debugsearchindex trace uses it
   * too).
   */
  private static void string(StringBuilder sb, String s) {
    new JSONString(s).toString(sb);
  }
}
