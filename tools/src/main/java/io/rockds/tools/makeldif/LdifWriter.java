package io.rockds.tools.makeldif;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Writes generated entries as LDIF (RFC 2849), one line per value, lines not folded. A value that
 * is not a SAFE-STRING (non-ASCII, control characters, a leading space, colon or {@code <}, a
 * trailing space) is written base64-encoded after {@code ::}; {@code attr::} template values
 * already are base64 and are written as they are.
 */
final class LdifWriter {
  private final Writer out;

  LdifWriter(Writer out) {
    this.out = out;
  }

  void write(GeneratedEntry entry) {
    try {
      writeLine("dn", entry.dn());
      for (GeneratedAttribute attribute : entry.attributes()) {
        attribute.forEachValue(value -> writeValue(attribute, value));
      }
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void writeValue(GeneratedAttribute attribute, String value) {
    try {
      if (attribute.base64()) {
        out.write(attribute.name());
        out.write(":: ");
        out.write(value);
        out.write('\n');
      } else {
        writeLine(attribute.name(), value);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void writeLine(String name, String value) throws IOException {
    out.write(name);
    if (isSafe(value)) {
      out.write(": ");
      out.write(value);
    } else {
      out.write(":: ");
      out.write(Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
    }
    out.write('\n');
  }

  static boolean isSafe(String value) {
    if (value.isEmpty()) {
      return true;
    }
    char first = value.charAt(0);
    if (first == ' ' || first == ':' || first == '<' || value.charAt(value.length() - 1) == ' ') {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == 0 || c == '\n' || c == '\r' || c > 127) {
        return false;
      }
    }
    return true;
  }
}
