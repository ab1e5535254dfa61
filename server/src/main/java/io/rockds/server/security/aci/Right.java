package io.rockds.server.security.aci;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** An access right an ACI allows or denies, as OpenDJ names it. */
public enum Right {
  READ,
  SEARCH,
  COMPARE,
  WRITE,
  SELFWRITE,
  ADD,
  DELETE,
  PROXY;

  /**
   * OpenDJ's {@code all}: every right except {@code proxy}, which must always be granted by name.
   */
  static final Set<Right> ALL = EnumSet.complementOf(EnumSet.of(PROXY));

  /** The rights one keyword of an ACI's rights list names; null if it names none. */
  static Set<Right> parse(String keyword) {
    String k = keyword.toLowerCase(Locale.ROOT);
    if (k.equals("all")) {
      return ALL;
    }
    for (Right r : values()) {
      if (r.name().toLowerCase(Locale.ROOT).equals(k)) {
        return EnumSet.of(r);
      }
    }
    return null;
  }
}
