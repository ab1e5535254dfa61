package io.rockds.server.changelog;

import com.unboundid.ldap.sdk.Filter;

/**
 * The change numbers a search filter can match, so that a search of {@code cn=changelog} reads only
 * those: {@code (changeNumber>=N)}, {@code (changeNumber<=M)}, {@code (changeNumber=N)} and their
 * AND and OR. Any other component leaves the range open; the filter itself is still evaluated on
 * every entry read.
 *
 * @param from the smallest number that can match
 * @param to the largest number that can match
 */
record ChangeNumberRange(long from, long to) {
  static final ChangeNumberRange ALL = new ChangeNumberRange(0, Long.MAX_VALUE);

  private static final String OID = "2.16.840.1.113730.3.1.5";

  static ChangeNumberRange of(Filter filter) {
    if (filter == null) {
      return ALL;
    }
    return switch (filter.getFilterType()) {
      case Filter.FILTER_TYPE_AND -> {
        ChangeNumberRange range = ALL;
        for (Filter component : filter.getComponents()) {
          ChangeNumberRange narrower = of(component);
          range =
              new ChangeNumberRange(
                  Math.max(range.from, narrower.from), Math.min(range.to, narrower.to));
        }
        yield range;
      }
      case Filter.FILTER_TYPE_OR -> {
        if (filter.getComponents().length == 0) {
          yield new ChangeNumberRange(1, 0); // (|) matches nothing
        }
        ChangeNumberRange range = null;
        for (Filter component : filter.getComponents()) {
          ChangeNumberRange wider = of(component);
          range =
              range == null
                  ? wider
                  : new ChangeNumberRange(
                      Math.min(range.from, wider.from), Math.max(range.to, wider.to));
        }
        yield range;
      }
      case Filter.FILTER_TYPE_EQUALITY -> {
        long n = number(filter);
        yield n < 0 ? ALL : new ChangeNumberRange(n, n);
      }
      case Filter.FILTER_TYPE_GREATER_OR_EQUAL -> {
        long n = number(filter);
        yield n < 0 ? ALL : new ChangeNumberRange(n, Long.MAX_VALUE);
      }
      case Filter.FILTER_TYPE_LESS_OR_EQUAL -> {
        long n = number(filter);
        yield n < 0 ? ALL : new ChangeNumberRange(0, n);
      }
      default -> ALL;
    };
  }

  /** The number a changeNumber component asserts, or -1 for another attribute or no number. */
  private static long number(Filter filter) {
    String type = filter.getAttributeName();
    int options = type.indexOf(';');
    String base = options < 0 ? type : type.substring(0, options);
    if (!base.equalsIgnoreCase(ChangelogEntries.CHANGE_NUMBER) && !base.equals(OID)) {
      return -1;
    }
    try {
      return Math.max(0, Long.parseLong(filter.getAssertionValue().trim()));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  boolean isEmpty() {
    return from > to;
  }
}
