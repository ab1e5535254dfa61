package io.rockds.config.model;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The syntax of a property value; {@link #expected} is what validation messages quote. */
public sealed interface Syntax {

  /** True if {@code value} is acceptable. */
  boolean accepts(String value);

  /** What a valid value looks like, e.g. "an integer from 0 to 65535". */
  String expected();

  /** Integers from {@code min} to {@code max}. */
  record IntegerSyntax(long min, long max) implements Syntax {
    @Override
    public boolean accepts(String value) {
      try {
        long n = Long.parseLong(value.trim());
        return n >= min && n <= max;
      } catch (NumberFormatException e) {
        return false;
      }
    }

    @Override
    public String expected() {
      return max == Long.MAX_VALUE || max == Integer.MAX_VALUE
          ? "an integer of at least " + min
          : "an integer from " + min + " to " + max;
    }
  }

  /** {@code true} or {@code false} (also yes/no, on/off, 1/0, as OpenDJ accepts). */
  record BooleanSyntax() implements Syntax {
    @Override
    public boolean accepts(String value) {
      return parse(value) != null;
    }

    @Override
    public String expected() {
      return "true or false";
    }

    static Boolean parse(String value) {
      return switch (value.trim().toLowerCase(Locale.ROOT)) {
        case "true", "yes", "on", "1" -> Boolean.TRUE;
        case "false", "no", "off", "0" -> Boolean.FALSE;
        default -> null;
      };
    }
  }

  /** One of a fixed set of lower-case names. */
  record EnumSyntax(List<String> values) implements Syntax {
    public EnumSyntax {
      values = List.copyOf(values);
    }

    @Override
    public boolean accepts(String value) {
      return values.contains(value.trim().toLowerCase(Locale.ROOT));
    }

    @Override
    public String expected() {
      return "one of " + String.join(", ", values);
    }
  }

  /** A distinguished name. */
  record DnSyntax() implements Syntax {
    @Override
    public boolean accepts(String value) {
      return com.unboundid.ldap.sdk.DN.isValidDN(value);
    }

    @Override
    public String expected() {
      return "a DN";
    }
  }

  /** Any non-blank text. */
  record StringSyntax() implements Syntax {
    @Override
    public boolean accepts(String value) {
      return !value.isBlank();
    }

    @Override
    public String expected() {
      return "a non-empty string";
    }
  }

  /**
   * A size such as {@code 100 mb}, {@code 512kb} or {@code 0} (bytes; units b, kb, mb, gb,
   * 1024-based).
   */
  QuantitySyntax SIZE =
      new QuantitySyntax(
          Pattern.compile("(\\d{1,15})\\s*(b|kb|mb|gb)?"),
          Map.of("b", 1L, "kb", 1L << 10, "mb", 1L << 20, "gb", 1L << 30),
          "b",
          "a size such as 100 mb (units b, kb, mb, gb)");

  /**
   * A duration such as {@code 24 h}, {@code 30s} or {@code 0} (milliseconds; units ms, s, m, h, d,
   * w; seconds by default).
   */
  QuantitySyntax DURATION =
      new QuantitySyntax(
          Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d|w)?"),
          Map.of(
              "ms", 1L,
              "s", 1_000L,
              "m", 60_000L,
              "h", 3_600_000L,
              "d", 86_400_000L,
              "w", 604_800_000L),
          "s",
          "a duration such as 24 h (units ms, s, m, h, d, w)");

  /**
   * A number with an optional unit, as sizes and durations are written ({@link #SIZE}, {@link
   * #DURATION}): the number times the unit's factor.
   *
   * @param number the number and unit, e.g. {@code (\d{1,15})\s*(b|kb|mb|gb)?}
   * @param factors each unit's factor
   * @param defaultUnit the unit of a bare number
   * @param expected what a valid value looks like
   */
  record QuantitySyntax(
      Pattern number, Map<String, Long> factors, String defaultUnit, String expected)
      implements Syntax {
    @Override
    public boolean accepts(String value) {
      return parse(value) >= 0;
    }

    /** The value in the smallest unit, or -1 when it is not a number with a unit or overflows. */
    public long parse(String value) {
      Matcher m = number.matcher(value.trim().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        return -1;
      }
      long n = Long.parseLong(m.group(1));
      long factor = factors.get(m.group(2) == null ? defaultUnit : m.group(2));
      return n > Long.MAX_VALUE / factor ? -1 : n * factor;
    }
  }
}
