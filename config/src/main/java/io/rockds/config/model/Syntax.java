package io.rockds.config.model;

import java.util.List;
import java.util.Locale;
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
  record SizeSyntax() implements Syntax {
    private static final Pattern SIZE = Pattern.compile("(\\d{1,15})\\s*(b|kb|mb|gb)?");

    @Override
    public boolean accepts(String value) {
      return bytes(value) >= 0;
    }

    @Override
    public String expected() {
      return "a size such as 100 mb (units b, kb, mb, gb)";
    }

    /** The size in bytes, or -1 when the value is not a size. */
    public static long bytes(String value) {
      Matcher m = SIZE.matcher(value.trim().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        return -1;
      }
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "b" : m.group(2);
      int shift =
          switch (unit) {
            case "kb" -> 10;
            case "mb" -> 20;
            case "gb" -> 30;
            default -> 0;
          };
      return n > (Long.MAX_VALUE >> shift) ? -1 : n << shift;
    }
  }

  /**
   * A duration such as {@code 24 h}, {@code 30s} or {@code 0} (units ms, s, m, h, d, w; seconds by
   * default).
   */
  record DurationSyntax() implements Syntax {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d|w)?");

    @Override
    public boolean accepts(String value) {
      return millis(value) >= 0;
    }

    @Override
    public String expected() {
      return "a duration such as 24 h (units ms, s, m, h, d, w)";
    }

    /** The duration in milliseconds, or -1 when the value is not a duration. */
    public static long millis(String value) {
      Matcher m = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        return -1;
      }
      long n = Long.parseLong(m.group(1));
      long unit =
          switch (m.group(2) == null ? "s" : m.group(2)) {
            case "ms" -> 1L;
            case "m" -> 60_000L;
            case "h" -> 3_600_000L;
            case "d" -> 86_400_000L;
            case "w" -> 604_800_000L;
            default -> 1_000L;
          };
      return n * unit;
    }
  }
}
