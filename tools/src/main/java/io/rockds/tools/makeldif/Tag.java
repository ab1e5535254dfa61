package io.rockds.tools.makeldif;

/**
 * One piece of an attribute value template: literal text, an attribute reference such as {@code
 * {sn:1}}, or a tag such as {@code <random:numeric:5>}.
 *
 * <p>Tags are immutable and shared by every generation of a {@link TemplateFile}; a tag that needs
 * state (a counter, a sequential file position) keeps it in {@link EntryContext#state}.
 */
interface Tag {
  /**
   * Appends this tag's text for the entry being built.
   *
   * @return false when the whole template line must be left out of the entry (the {@code presence},
   *     {@code ifpresent} and {@code ifabsent} tags)
   */
  boolean append(EntryContext entry, StringBuilder value);
}
