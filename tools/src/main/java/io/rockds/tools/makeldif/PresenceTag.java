package io.rockds.tools.makeldif;

/** {@code <presence:P>}: keeps the line in P percent of the entries, chosen at random. */
record PresenceTag(int percent) implements Tag {
  static PresenceTag parse(TagArguments args) {
    args.expectCount(1, 1, "<presence:percent>");
    int percent = args.intAt(0);
    if (percent < 0 || percent > 100) {
      throw args.error("percent " + percent + " (expected: 0 to 100)");
    }
    return new PresenceTag(percent);
  }

  @Override
  public boolean append(EntryContext entry, StringBuilder value) {
    return entry.random().nextInt(100) < percent;
  }
}
