package io.rockds.storage;

/** The kinds of attribute index, as {@code index-type} names them in the configuration. */
public enum IndexType {
  EQUALITY,
  PRESENCE,
  SUBSTRING,
  ORDERING,
  APPROXIMATE;

  /** The configuration spelling, e.g. {@code equality}. */
  public String configName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  public static IndexType fromConfigName(String name) {
    try {
      return valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "index-type: "
              + name
              + " (expected: equality, presence, substring, ordering or approximate)");
    }
  }
}
