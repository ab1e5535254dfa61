package io.rockds.tools.makeldif;

/** Escapes an attribute value for use in a DN string, as RFC 4514 section 2.4 requires. */
final class DnEscaper {
  private DnEscaper() {}

  static void appendValue(String value, StringBuilder dn) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean special =
          c == ','
              || c == '+'
              || c == '"'
              || c == '\\'
              || c == '<'
              || c == '>'
              || c == ';'
              || c == '='
              || (i == 0 && (c == ' ' || c == '#'))
              || (i == value.length() - 1 && c == ' ');
      if (c == 0) {
        dn.append("\\00");
      } else {
        if (special) {
          dn.append('\\');
        }
        dn.append(c);
      }
    }
  }
}
