package io.rockds.storage;

import java.util.EnumSet;
import java.util.Set;

/**
 * What to index for one attribute.
 *
 * @param attribute the attribute type name, e.g. {@code sn}
 * @param types the index types
 * @param entryLimit a per-index override of the backend's index-entry-limit, or null to inherit
 * @param substringLength the substring key length (at least 3; OpenDJ's default is 6)
 */
public record IndexSpec(
    String attribute, Set<IndexType> types, Integer entryLimit, int substringLength) {
  public static final int DEFAULT_SUBSTRING_LENGTH = 6;
  public static final int MIN_SUBSTRING_LENGTH = 3;

  public IndexSpec {
    if (attribute == null || attribute.isBlank()) {
      throw new IllegalArgumentException("attribute: must not be empty");
    }
    if (types.isEmpty()) {
      throw new IllegalArgumentException(
          "index-type of " + attribute + ": at least one is required");
    }
    if (substringLength < MIN_SUBSTRING_LENGTH) {
      throw new IllegalArgumentException(
          "substring-length of "
              + attribute
              + ": "
              + substringLength
              + " (expected: >= "
              + MIN_SUBSTRING_LENGTH
              + ")");
    }
    if (entryLimit != null && entryLimit < 0) {
      throw new IllegalArgumentException(
          "index-entry-limit of " + attribute + ": " + entryLimit + " (expected: >= 0)");
    }
    types = Set.copyOf(types);
  }

  public static IndexSpec of(String attribute, IndexType first, IndexType... more) {
    return new IndexSpec(attribute, EnumSet.of(first, more), null, DEFAULT_SUBSTRING_LENGTH);
  }
}
