package io.rockds.storage;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Which stored attribute descriptions a reader needs, e.g. those a filter tests. The decision is
 * taken once per description, not once per attribute of every entry a scan reads. It is remembered
 * by description rather than by the dictionary's id, so one projection serves every container (each
 * numbers its descriptions its own way).
 */
public final class AttributeProjection {
  private final Predicate<String> keep;
  private final ConcurrentHashMap<String, Boolean> decided = new ConcurrentHashMap<>();

  /** Keeps the descriptions (as stored, options included) that {@code keep} accepts. */
  public AttributeProjection(Predicate<String> keep) {
    this.keep = keep;
  }

  boolean keeps(String description) {
    Boolean known = decided.get(description);
    if (known == null) {
      known = keep.test(description);
      decided.put(description, known);
    }
    return known;
  }
}
