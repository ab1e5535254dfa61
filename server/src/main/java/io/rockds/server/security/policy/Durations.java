package io.rockds.server.security.policy;

import io.rockds.config.ConfigException;
import java.time.Duration;
import java.util.Locale;

/** Reads OpenDJ-style duration properties: {@code 300}, {@code 5 m}, {@code 5 minutes}, {@code 90 d}. */
final class Durations {
  private Durations() {}

  static Duration parse(String value, String where) throws ConfigException {
    String v = value.trim().toLowerCase(Locale.ROOT);
    int split = 0;
    while (split < v.length() && Character.isDigit(v.charAt(split))) {
      split++;
    }
    if (split == 0 || split > 12) {
      throw invalid(value, where);
    }
    long n = Long.parseLong(v.substring(0, split));
    String unit = v.substring(split).trim();
    return switch (unit) {
      case "", "s", "sec", "second", "seconds" -> Duration.ofSeconds(n);
      case "ms", "millisecond", "milliseconds" -> Duration.ofMillis(n);
      case "m", "min", "minute", "minutes" -> Duration.ofMinutes(n);
      case "h", "hour", "hours" -> Duration.ofHours(n);
      case "d", "day", "days" -> Duration.ofDays(n);
      case "w", "week", "weeks" -> Duration.ofDays(7 * n);
      default -> throw invalid(value, where);
    };
  }

  private static ConfigException invalid(String value, String where) {
    return new ConfigException(where + ": \"" + value
        + "\" (expected: a duration such as 300, 300 ms, 5 m, 2 h, 90 d or 1 w)");
  }
}
