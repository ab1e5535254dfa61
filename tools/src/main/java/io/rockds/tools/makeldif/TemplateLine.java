package io.rockds.tools.makeldif;

import java.util.regex.Pattern;

/**
 * One {@code attr: value} (or {@code attr:: base64value}) line of a branch or template.
 *
 * @param attribute the attribute name as written
 * @param key the attribute name in lower case, for lookups
 */
record TemplateLine(
    String attribute, String key, boolean base64, ValueTemplate value, int lineNumber) {
  /** A descriptor with options ({@code userCertificate;binary}) or a numeric OID. */
  private static final Pattern ATTRIBUTE_NAME =
      Pattern.compile("(?:[A-Za-z][A-Za-z0-9-]*|[0-9]+(?:\\.[0-9]+)*)(?:;[A-Za-z0-9-]+)*");

  static boolean isAttributeName(String text) {
    return ATTRIBUTE_NAME.matcher(text).matches();
  }

  /** Generates this line's value(s) into the entry, or nothing when a tag drops the line. */
  void generate(EntryContext entry) {
    StringBuilder text = entry.scratch();
    boolean keep = value.appendBefore(entry, text);
    if (!value.hasPartition()) {
      if (keep) {
        entry.add(this, text.toString());
      }
      return;
    }
    String prefix = text.toString();
    text.setLength(0);
    keep &= value.appendAfter(entry, text);
    NumberedValues.Range share = value.partition().nextShare(entry);
    if (keep) {
      entry.add(this, new NumberedValues(prefix, share, text.toString()));
    }
  }
}
