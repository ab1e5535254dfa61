package io.rockds.tools.makeldif;

/** Text copied as is, with constants already substituted and escapes removed. */
record LiteralText(String text) implements Tag {
  @Override
  public boolean append(EntryContext entry, StringBuilder value) {
    value.append(text);
    return true;
  }
}
