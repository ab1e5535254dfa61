package io.rockds.tools.makeldif;

/**
 * {@code {attr}} or {@code {attr:N}}: the first value the entry already has for {@code attr} (a
 * line above this one), cut to its first N characters; empty when the entry has none.
 */
record AttributeValueTag(String attributeKey, int maxLength) implements Tag {
  static final int WHOLE_VALUE = Integer.MAX_VALUE;

  @Override
  public boolean append(EntryContext entry, StringBuilder value) {
    String text = entry.firstValue(attributeKey);
    if (text != null) {
      value.append(text, 0, Math.min(maxLength, text.length()));
    }
    return true;
  }
}
