package io.rockds.server;

import com.unboundid.util.StaticUtils;
import java.text.ParseException;
import java.time.LocalDate;

/**
 * The server's timestamps as LDAP generalized times in UTC to the millisecond ({@code
 * 20261128045012.345Z}, the form the SDK writes): every write stamps one and the changelog reads it
 * back, so both directions avoid the SDK's per-call {@code SimpleDateFormat}.
 */
public final class GeneralizedTimes {
  private static final int LENGTH = 19;

  /** The last time formatted: writes in the same millisecond share its text. */
  private static volatile Stamp last = new Stamp(Long.MIN_VALUE, "");

  private record Stamp(long millis, String text) {}

  private GeneralizedTimes() {}

  /** The current time. */
  public static String now() {
    long millis = System.currentTimeMillis();
    Stamp stamp = last;
    if (stamp.millis != millis) {
      stamp = new Stamp(millis, format(millis));
      last = stamp;
    }
    return stamp.text;
  }

  /** {@code millis} since the epoch as a generalized time. */
  static String format(long millis) {
    long days = Math.floorDiv(millis, 86_400_000L);
    int ofDay = (int) Math.floorMod(millis, 86_400_000L);
    LocalDate date = LocalDate.ofEpochDay(days);
    char[] out = new char[LENGTH];
    digits(out, 0, date.getYear(), 4);
    digits(out, 4, date.getMonthValue(), 2);
    digits(out, 6, date.getDayOfMonth(), 2);
    digits(out, 8, ofDay / 3_600_000, 2);
    digits(out, 10, ofDay / 60_000 % 60, 2);
    digits(out, 12, ofDay / 1000 % 60, 2);
    out[14] = '.';
    digits(out, 15, ofDay % 1000, 3);
    out[18] = 'Z';
    return new String(out);
  }

  /**
   * Milliseconds since the epoch of a generalized time: the server's own form read directly, any
   * other form through the SDK; 0 when it is not a generalized time.
   */
  public static long millis(String time) {
    if (time.length() == LENGTH && time.charAt(14) == '.' && time.charAt(18) == 'Z') {
      int year = number(time, 0, 4);
      int month = number(time, 4, 2);
      int day = number(time, 6, 2);
      int hour = number(time, 8, 2);
      int minute = number(time, 10, 2);
      int second = number(time, 12, 2);
      int milli = number(time, 15, 3);
      if (year >= 0
          && month >= 1
          && month <= 12
          && day >= 1
          && day <= 31
          && hour >= 0
          && hour < 24
          && minute >= 0
          && minute < 60
          && second >= 0
          && second < 60
          && milli >= 0
          && day <= LocalDate.of(year, month, 1).lengthOfMonth()) {
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return ((epochDay * 24 + hour) * 60 + minute) * 60_000L + second * 1000L + milli;
      }
    }
    try {
      return StaticUtils.decodeGeneralizedTime(time).getTime();
    } catch (ParseException e) {
      return 0;
    }
  }

  private static void digits(char[] out, int at, int value, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      out[i] = (char) ('0' + value % 10);
      value /= 10;
    }
  }

  /** The decimal number of {@code width} digits at {@code at}, or -1. */
  private static int number(String s, int at, int width) {
    int value = 0;
    for (int i = at; i < at + width; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
