package io.rockds.tools.makeldif;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code <random:...>}, OpenDJ's forms:
 *
 * <ul>
 *   <li>{@code alpha}, {@code numeric}, {@code alphanumeric}, {@code hex}, {@code base64} followed
 *       by {@code :length} or {@code :minLength:maxLength}: random characters (letters are lower
 *       case);
 *   <li>{@code chars:characters:length} or {@code chars:characters:min:max};
 *   <li>{@code numeric:min:max[:width]}: an integer in {@code [min, max]}, zero-padded to {@code
 *       width} digits when given (three or four arguments, unlike {@code numeric:length});
 *   <li>{@code telephone}: {@code +1 NNN NNN NNNN}, OpenDJ's format;
 *   <li>{@code month[:maxLength]}: an English month name, cut to maxLength characters.
 * </ul>
 */
final class RandomTags {
  private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
  private static final String DIGITS = "0123456789";
  private static final String BASE64 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  private static final String[] MONTHS = {
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December"
  };

  private RandomTags() {}

  static Tag parse(TagArguments args) {
    if (args.size() == 0) {
      throw args.error("expected <random:type...>");
    }
    String type = args.get(0).trim().toLowerCase(Locale.ROOT);
    switch (type) {
      case "alpha":
        return characters(LOWER, args, 1);
      case "numeric":
        return args.size() >= 3 ? number(args) : characters(DIGITS, args, 1);
      case "alphanumeric":
        return characters(LOWER + DIGITS, args, 1);
      case "hex":
        return characters("0123456789abcdef", args, 1);
      case "base64":
        return characters(BASE64, args, 1);
      case "chars":
        args.expectCount(
            3, 4, "<random:chars:characters:length> or <random:chars:characters:min:max>");
        if (args.get(1).isEmpty()) {
          throw args.error("no characters to choose from");
        }
        return characters(args.get(1), args, 2);
      case "telephone":
        args.expectCount(1, 1, "<random:telephone>");
        return new Telephone();
      case "month":
        args.expectCount(1, 2, "<random:month[:maxLength]>");
        return new Month(args.size() == 2 ? args.intAt(1) : Integer.MAX_VALUE);
      default:
        throw args.error("unknown random type '" + args.get(0) + "'");
    }
  }

  /** {@code length} or {@code min:max} from argument {@code at} on. */
  private static Tag characters(String alphabet, TagArguments args, int at) {
    args.expectCount(
        at + 1,
        at + 2,
        "<random:" + args.get(0) + ":length> or <random:" + args.get(0) + ":min:max>");
    int min = args.intAt(at);
    int max = args.size() == at + 2 ? args.intAt(at + 1) : min;
    if (min < 0 || max < min) {
      throw args.error("lengths " + min + ".." + max + " (expected: 0 <= min <= max)");
    }
    return new Characters(alphabet.toCharArray(), min, max);
  }

  private static Tag number(TagArguments args) {
    args.expectCount(3, 4, "<random:numeric:min:max[:width]>");
    long min = args.longAt(1);
    long max = args.longAt(2);
    if (max < min) {
      throw args.error("range " + min + ".." + max + " (expected: min <= max)");
    }
    return new Number(min, max, args.size() == 4 ? args.intAt(3) : 0);
  }

  private record Characters(char[] alphabet, int minLength, int maxLength) implements Tag {
    @Override
    public boolean append(EntryContext entry, StringBuilder value) {
      SplittableRandom random = entry.random();
      char[] chars =
          new char[minLength == maxLength ? minLength : random.nextInt(minLength, maxLength + 1)];
      // Two characters per 64-bit draw, each 32-bit half scaled to the alphabet (Lemire's
      // multiply-shift; the bias, alphabet size / 2^32, is far below what test data cares
      // about): the OID photo needs 1500 characters per entry and this halves their cost.
      for (int i = 0; i < chars.length; i += 2) {
        long bits = random.nextLong();
        chars[i] = alphabet[(int) (((bits >>> 32) * alphabet.length) >>> 32)];
        if (i + 1 < chars.length) {
          chars[i + 1] = alphabet[(int) (((bits & 0xFFFFFFFFL) * alphabet.length) >>> 32)];
        }
      }
      value.append(chars);
      return true;
    }
  }

  private record Number(long min, long max, int width) implements Tag {
    @Override
    public boolean append(EntryContext entry, StringBuilder value) {
      // nextLong's bound is exclusive; at Long.MAX_VALUE that one value is never drawn.
      long number = entry.random().nextLong(min, max == Long.MAX_VALUE ? max : max + 1);
      String digits = Long.toString(number);
      for (int i = digits.length(); i < width; i++) {
        value.append('0');
      }
      value.append(digits);
      return true;
    }
  }

  private static final class Telephone implements Tag {
    @Override
    public boolean append(EntryContext entry, StringBuilder value) {
      SplittableRandom random = entry.random();
      value.append("+1 ");
      appendDigits(random, 3, value);
      value.append(' ');
      appendDigits(random, 3, value);
      value.append(' ');
      appendDigits(random, 4, value);
      return true;
    }

    private static void appendDigits(SplittableRandom random, int count, StringBuilder value) {
      for (int i = 0; i < count; i++) {
        value.append((char) ('0' + random.nextInt(10)));
      }
    }
  }

  private record Month(int maxLength) implements Tag {
    @Override
    public boolean append(EntryContext entry, StringBuilder value) {
      String month = MONTHS[entry.random().nextInt(MONTHS.length)];
      value.append(month, 0, Math.min(maxLength, month.length()));
      return true;
    }
  }
}
