package io.rockds.server.security;

import com.unboundid.ldap.sdk.Filter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;

/** The attribute names a search filter tests, which all need the search right. */
final class FilterAttributes {
  private FilterAttributes() {}

  static Set<String> of(Filter filter) {
    Set<String> names = new LinkedHashSet<>();
    Deque<Filter> pending = new ArrayDeque<>();
    pending.push(filter);
    // Iterative: filter depth is bounded by the decoder, but recursion is not needed here.
    while (!pending.isEmpty()) {
      Filter f = pending.pop();
      switch (f.getFilterType()) {
        case Filter.FILTER_TYPE_AND, Filter.FILTER_TYPE_OR -> {
          for (Filter c : f.getComponents()) {
            pending.push(c);
          }
        }
        case Filter.FILTER_TYPE_NOT -> pending.push(f.getNOTComponent());
        default -> {
          if (f.getAttributeName() != null) {
            names.add(f.getAttributeName());
          }
        }
      }
    }
    return names;
  }
}
