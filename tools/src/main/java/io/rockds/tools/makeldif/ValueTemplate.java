package io.rockds.tools.makeldif;

import java.util.List;

/**
 * The parsed right-hand side of a template line: the tags before an optional {@code <partition>}
 * tag, that tag, and the tags after it. Without a partition tag the line yields one value; with one
 * it yields a value per integer of the partition, each being the text before + the integer + the
 * text after (the surrounding text is generated once per entry, so a million members cost a million
 * string concatenations, not a million tag runs).
 */
record ValueTemplate(List<Tag> before, PartitionTag partition, List<Tag> after) {
  ValueTemplate {
    before = List.copyOf(before);
    after = List.copyOf(after);
  }

  static ValueTemplate of(List<Tag> tags) {
    return new ValueTemplate(tags, null, List.of());
  }

  boolean hasPartition() {
    return partition != null;
  }

  /** Appends the tags before the partition (all of them when there is none). */
  boolean appendBefore(EntryContext entry, StringBuilder value) {
    return appendAll(before, entry, value);
  }

  boolean appendAfter(EntryContext entry, StringBuilder value) {
    return appendAll(after, entry, value);
  }

  private static boolean appendAll(List<Tag> tags, EntryContext entry, StringBuilder value) {
    boolean keep = true;
    for (Tag tag : tags) {
      // Every tag runs even once the line is dropped, so that the random stream, and with
      // it the rest of the output, does not depend on where a presence tag sits.
      keep &= tag.append(entry, value);
    }
    return keep;
  }
}
