package io.rockds.storage;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Which stored attribute descriptions a reader needs, e.g. those a filter tests. The decision is
 * taken once per description of the backend's dictionary, not once per attribute of every entry a
 * scan reads.
 */
public final class AttributeProjection {
  private final Predicate<String> keep;
  private final ConcurrentHashMap<Integer, Boolean> byId = new ConcurrentHashMap<>();

  /** Keeps the descriptions (as stored, options included) that {@code keep} accepts. */
  public AttributeProjection(Predicate<String> keep) {
    this.keep = keep;
  }

  boolean keeps(int id, String description) {
    Boolean known = byId.get(id);
    if (known == null) {
      known = keep.test(description);
      byId.put(id, known);
    }
    return known;
  }
}
