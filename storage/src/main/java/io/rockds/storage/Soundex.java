package io.rockds.storage;

import java.util.Locale;

/**
 * American Soundex, the key of approximate indexes: {@code (sn~=Smyth)} finds {@code Smith}. OpenDJ
 * uses double metaphone; Soundex is simpler, well known, and good enough for the names approximate
 * matching is used on.
 */
public final class Soundex {
  private static final String CODES = "01230120022455012623010202";

  private Soundex() {}

  public static String encode(String value) {
    String s = value.toUpperCase(Locale.ROOT);
    StringBuilder out = new StringBuilder(4);
    char last = 0;
    for (int i = 0; i < s.length() && out.length() < 4; i++) {
      char c = s.charAt(i);
      if (c < 'A' || c > 'Z') {
        continue;
      }
      char code = CODES.charAt(c - 'A');
      if (out.length() == 0) {
        out.append(c);
        last = code;
      } else if (code != '0' && code != last) {
        out.append(code);
        last = code;
      } else if (c != 'H' && c != 'W') {
        last = code;
      }
    }
    if (out.length() == 0) {
      return "";
    }
    while (out.length() < 4) {
      out.append('0');
    }
    return out.toString();
  }
}
