package io.rockds.tools.makeldif;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The mutable state of one run over a template: the seeded random source every tag draws from, in
 * template order, which makes a run reproducible; the per-tag state (counters, file positions),
 * kept here so that a parsed {@link TemplateFile} can be generated again from scratch; and the
 * serial number of the last entry, which identifies parents.
 */
final class Generation {
  final SplittableRandom random;
  private final Map<Tag, Object> tagStates = new IdentityHashMap<>();
  private final StringBuilder scratch = new StringBuilder(4096);
  private long lastSerial;

  Generation(long seed) {
    this.random = new SplittableRandom(seed);
  }

  @SuppressWarnings("unchecked")
  <T> T state(Tag tag, Supplier<T> initial) {
    Object state = tagStates.get(tag);
    if (state == null) {
      state = initial.get();
      tagStates.put(tag, state);
    }
    return (T) state;
  }

  long nextSerial() {
    return ++lastSerial;
  }

  /** A buffer for one line's value at a time; lines are generated one after the other. */
  StringBuilder scratch() {
    scratch.setLength(0);
    return scratch;
  }
}
