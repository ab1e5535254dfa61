package io.rockds.server.security.password;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.util.Locale;
import java.util.Optional;

/**
 * A stored value split into its {@code {SCHEME}} prefix and the payload after it.
 *
 * <p>A prefix is {@code {}, 1 to 32 letters, digits, {@code -}, {@code _} or {@code .}, then {@code
 * }}: the shape of every scheme name OpenLDAP, OpenDJ and 389-ds use, and narrow enough that a
 * clear-text password merely starting with a brace is not mistaken for one.
 *
 * @param scheme the name between the braces, upper case
 * @param payload the bytes after the closing brace, one char per byte (ISO-8859-1)
 */
record PrefixedValue(String scheme, String payload) {

  private static final int MAX_NAME_LENGTH = 32;

  /** Splits {@code value}, or empty if it does not start with a scheme prefix. */
  static Optional<PrefixedValue> parse(byte[] value) {
    if (value.length < 3 || value[0] != '{') {
      return Optional.empty();
    }
    int limit = Math.min(value.length, MAX_NAME_LENGTH + 2);
    for (int i = 1; i < limit; i++) {
      byte b = value[i];
      if (b == '}' && i > 1) {
        String scheme = new String(value, 1, i - 1, ISO_8859_1).toUpperCase(Locale.ROOT);
        String payload = new String(value, i + 1, value.length - i - 1, ISO_8859_1);
        return Optional.of(new PrefixedValue(scheme, payload));
      }
      if (!isNameChar(b)) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private static boolean isNameChar(byte b) {
    return b >= 'A' && b <= 'Z'
        || b >= 'a' && b <= 'z'
        || b >= '0' && b <= '9'
        || b == '-'
        || b == '_'
        || b == '.';
  }
}
