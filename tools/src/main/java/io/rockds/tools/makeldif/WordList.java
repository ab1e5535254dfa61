package io.rockds.tools.makeldif;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The values a {@code <file>}, {@code <list>}, {@code <first>} or {@code <last>} tag picks from. A
 * value may end with {@code ;weight} (a positive integer, default 1) to be picked that many times
 * more often: the built-in last names use it so that a few common surnames (Smith, Johnson, ...)
 * occur often, as in a real directory, while the rest stay rare.
 */
final class WordList {
  private final String[] values;

  /** Cumulative weights, or null when every value has weight 1. */
  private final long[] cumulativeWeights;

  private WordList(String[] values, long[] cumulativeWeights) {
    this.values = values;
    this.cumulativeWeights = cumulativeWeights;
  }

  /**
   * @param entries values, each optionally followed by {@code ;weight}; blank ones are skipped
   * @param source what the entries come from, for error messages
   */
  static WordList parse(List<String> entries, String source, int lineNumber) {
    List<String> values = new ArrayList<>(entries.size());
    long[] cumulative = new long[entries.size()];
    boolean weighted = false;
    long total = 0;
    for (String entry : entries) {
      if (entry.isBlank()) {
        continue;
      }
      String value = entry;
      long weight = 1;
      int semicolon = entry.lastIndexOf(';');
      if (semicolon >= 0 && isDigits(entry, semicolon + 1)) {
        value = entry.substring(0, semicolon);
        weight = Long.parseLong(entry.substring(semicolon + 1));
        if (weight == 0) {
          throw new TemplateException(
              lineNumber, source + ": weight of '" + value + "' is 0 (expected: > 0)");
        }
        weighted = true;
      }
      total += weight;
      cumulative[values.size()] = total;
      values.add(value);
    }
    if (values.isEmpty()) {
      throw new TemplateException(lineNumber, source + " has no values");
    }
    return new WordList(
        values.toArray(String[]::new), weighted ? Arrays.copyOf(cumulative, values.size()) : null);
  }

  private static boolean isDigits(String text, int from) {
    if (from >= text.length() || text.length() - from > 9) {
      return false;
    }
    for (int i = from; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  int size() {
    return values.length;
  }

  String get(int index) {
    return values[index];
  }

  String pick(SplittableRandom random) {
    if (cumulativeWeights == null) {
      return values[random.nextInt(values.length)];
    }
    long target = random.nextLong(cumulativeWeights[cumulativeWeights.length - 1]);
    int index = Arrays.binarySearch(cumulativeWeights, target + 1);
    return values[index >= 0 ? index : -index - 1];
  }
}
