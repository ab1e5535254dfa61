package io.rockds.tools.makeldif;

/**
 * {@code <partition:first:last:parts>}, a RockDS extension: a multi-valued tag that deals the
 * integers {@code first..last} round-robin to the entries generated from its line. The k-th such
 * entry (k from 0) gets every integer i in the range with i ≡ k (mod parts), so {@code parts}
 * consecutive entries hold each integer exactly once. This is how the benchmark template gives 10
 * groups whose members are all the users:
 *
 * <pre>
 * cn: group.&lt;sequential:0&gt;
 * member: uid=user.&lt;partition:1:[numusers]:10&gt;,ou=People,[suffix]
 * </pre>
 *
 * The values are streamed to the LDIF file, never held in memory.
 */
record PartitionTag(long first, long last, long parts) implements Tag {
  static PartitionTag parse(TagArguments args) {
    args.expectCount(3, 3, "<partition:first:last:parts>");
    PartitionTag tag = new PartitionTag(args.longAt(0), args.longAt(1), args.longAt(2));
    if (tag.parts <= 0) {
      throw args.error("parts " + tag.parts + " (expected: > 0)");
    }
    return tag;
  }

  /** The integers of this entry's share: first value, step and inclusive upper bound. */
  NumberedValues.Range nextShare(EntryContext entry) {
    long[] entriesSoFar = entry.state(this, () -> new long[1]);
    long residue = Math.floorMod(entriesSoFar[0]++, parts);
    return new NumberedValues.Range(first + Math.floorMod(residue - first, parts), parts, last);
  }

  @Override
  public boolean append(EntryContext entry, StringBuilder value) {
    // ValueParser keeps this tag out of the tag lists; TemplateLine expands it instead.
    throw new IllegalStateException("<partition> is expanded by its template line");
  }
}
