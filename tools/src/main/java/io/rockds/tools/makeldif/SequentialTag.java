package io.rockds.tools.makeldif;

import java.util.Locale;

/**
 * {@code <sequential>}: an integer that grows by one for each value this tag generates. Forms:
 * {@code <sequential>} (from 0), {@code <sequential:start>}, {@code
 * <sequential:start:resetOnNewParent>} (OpenDJ's form, {@code true} or {@code false}) and {@code
 * <sequential:start:increment[:resetOnNewParent]>}. With reset, the count starts over under each
 * new parent entry.
 */
final class SequentialTag implements Tag {
  private final long start;
  private final long increment;
  private final boolean resetOnNewParent;

  private SequentialTag(long start, long increment, boolean resetOnNewParent) {
    this.start = start;
    this.increment = increment;
    this.resetOnNewParent = resetOnNewParent;
  }

  static SequentialTag parse(TagArguments args) {
    args.expectCount(0, 3, "<sequential[:start[:increment][:resetOnNewParent]]>");
    long start = args.size() > 0 ? args.longAt(0) : 0;
    long increment = 1;
    boolean reset = false;
    if (args.size() == 2 && isBoolean(args.get(1))) {
      reset = parseBoolean(args, 1);
    } else if (args.size() >= 2) {
      increment = args.longAt(1);
      if (args.size() == 3) {
        reset = parseBoolean(args, 2);
      }
    }
    return new SequentialTag(start, increment, reset);
  }

  private static boolean isBoolean(String text) {
    String lower = text.trim().toLowerCase(Locale.ROOT);
    return lower.equals("true") || lower.equals("false");
  }

  private static boolean parseBoolean(TagArguments args, int index) {
    if (!isBoolean(args.get(index))) {
      throw args.error("'" + args.get(index) + "' is neither true nor false");
    }
    return Boolean.parseBoolean(args.get(index).trim());
  }

  /** Next value and the parent it was generated under. */
  private static final class Counter {
    long next;
    long parentSerial;
  }

  @Override
  public boolean append(EntryContext entry, StringBuilder value) {
    Counter counter =
        entry.state(
            this,
            () -> {
              Counter fresh = new Counter();
              fresh.next = start;
              fresh.parentSerial = entry.parentSerial();
              return fresh;
            });
    if (resetOnNewParent && counter.parentSerial != entry.parentSerial()) {
      counter.next = start;
      counter.parentSerial = entry.parentSerial();
    }
    value.append(counter.next);
    counter.next += increment;
    return true;
  }
}
