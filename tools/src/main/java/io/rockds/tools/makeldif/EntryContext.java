package io.rockds.tools.makeldif;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The entry being generated, as its template lines see it: the values set so far (for {@code
 * {attr}}, {@code <ifpresent>}), its DN (for {@code <DN>}, built from the {@code rdnAttr} values
 * once they exist), its parent, and the run's random source.
 */
final class EntryContext {
  /** Which ASCII characters are base64 digits; checked for every {@code attr::} value. */
  private static final boolean[] BASE64_ALPHABET = new boolean[128];

  static {
    for (char c :
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".toCharArray()) {
      BASE64_ALPHABET[c] = true;
    }
  }

  private final Generation generation;
  private final String parentDn;
  private final long parentSerial;
  private final long serial;
  private final List<TemplateLine> rdnLines;
  private final Map<String, GeneratedAttribute> attributes = new LinkedHashMap<>();
  private String rdn;

  /** An entry named by its {@code rdnLines}' first values, below {@code parentDn}. */
  EntryContext(
      Generation generation, String parentDn, long parentSerial, List<TemplateLine> rdnLines) {
    this.generation = generation;
    this.parentDn = parentDn;
    this.parentSerial = parentSerial;
    this.serial = generation.nextSerial();
    this.rdnLines = rdnLines;
  }

  /** An entry with a fixed RDN: a branch. */
  EntryContext(Generation generation, String rdn, String parentDn) {
    this(generation, parentDn, 0, List.of());
    this.rdn = rdn;
  }

  SplittableRandom random() {
    return generation.random;
  }

  <T> T state(Tag tag, Supplier<T> initial) {
    return generation.state(tag, initial);
  }

  StringBuilder scratch() {
    return generation.scratch();
  }

  long serial() {
    return serial;
  }

  long parentSerial() {
    return parentSerial;
  }

  String parentDn() {
    return parentDn;
  }

  String rdn() {
    if (rdn == null) {
      StringBuilder built = new StringBuilder();
      for (TemplateLine line : rdnLines) {
        String value = firstValue(line.key());
        if (value == null) {
          throw new TemplateException(
              line.lineNumber(),
              "rdnAttr "
                  + line.attribute()
                  + " has no value yet: the line sets no value for this entry"
                  + " or a DN tag comes before it");
        }
        if (built.length() > 0) {
          built.append('+');
        }
        built.append(line.attribute()).append('=');
        DnEscaper.appendValue(value, built);
      }
      rdn = built.toString();
    }
    return rdn;
  }

  String dn() {
    return parentDn.isEmpty() ? rdn() : rdn() + "," + parentDn;
  }

  String firstValue(String attributeKey) {
    GeneratedAttribute attribute = attributes.get(attributeKey);
    return attribute == null ? null : attribute.firstValue();
  }

  boolean hasValue(String attributeKey, String value) {
    GeneratedAttribute attribute = attributes.get(attributeKey);
    return attribute != null && attribute.contains(value);
  }

  /** Adds a value; empty values are left out, as LDAP has no use for them here. */
  void add(TemplateLine line, String value) {
    if (value.isEmpty()) {
      return;
    }
    if (line.base64()) {
      requireBase64(line, value);
    }
    attribute(line).add(value);
  }

  /** Adds a fixed text value: a branch's object classes and RDN values. */
  void addText(String attribute, String value) {
    attributes
        .computeIfAbsent(
            attribute.toLowerCase(Locale.ROOT), key -> new GeneratedAttribute(attribute, false))
        .add(value);
  }

  void add(TemplateLine line, NumberedValues values) {
    if (!values.isEmpty()) {
      attribute(line).add(values);
    }
  }

  private GeneratedAttribute attribute(TemplateLine line) {
    return attributes.computeIfAbsent(
        line.key(), key -> new GeneratedAttribute(line.attribute(), line.base64()));
  }

  private static void requireBase64(TemplateLine line, String value) {
    int length = value.length();
    boolean valid = length % 4 == 0;
    for (int i = 0; valid && i < length; i++) {
      char c = value.charAt(i);
      valid = c < 128 && (BASE64_ALPHABET[c] || (c == '=' && i >= length - 2));
    }
    if (!valid) {
      throw new TemplateException(
          line.lineNumber(),
          line.attribute()
              + ":: expects base64 text (use <base64:...>), got '"
              + abbreviate(value)
              + "'");
    }
  }

  private static String abbreviate(String value) {
    return value.length() <= 40 ? value : value.substring(0, 40) + "...";
  }

  GeneratedEntry toGeneratedEntry() {
    return new GeneratedEntry(dn(), List.copyOf(attributes.values()));
  }
}
