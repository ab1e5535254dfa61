package io.rockds.tools.advisor;

import com.unboundid.ldap.sdk.Filter;
import io.rockds.config.BackendConfig;
import io.rockds.config.IndexConfig;
import io.rockds.storage.IndexType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The indexes a filter lacks in a backend's configuration, chosen the way candidate building uses
 * them: an AND needs one indexed component (the advisor picks the most selective kind missing:
 * equality, then substring, ordering, approximate, presence); an OR needs all of them; a NOT never
 * uses an index. {@code objectClass} is never suggested: its keys hold most entries and are over
 * the limit in any real directory.
 */
final class IndexNeeds {
  /** One attribute index type a filter would use. */
  record Need(String attribute, IndexType type) {}

  private static final List<IndexType> PREFERENCE =
      List.of(
          IndexType.EQUALITY,
          IndexType.SUBSTRING,
          IndexType.ORDERING,
          IndexType.APPROXIMATE,
          IndexType.PRESENCE);

  private final BackendConfig backend;

  IndexNeeds(BackendConfig backend) {
    this.backend = backend;
  }

  /** The indexes to add so that {@code filter} can be indexed; empty if its indexes exist. */
  Set<Need> missing(Filter filter) {
    return new LinkedHashSet<>(needs(filter));
  }

  private List<Need> needs(Filter f) {
    switch (f.getFilterType()) {
      case Filter.FILTER_TYPE_AND -> {
        List<Need> best = List.of();
        for (Filter c : f.getComponents()) {
          List<Need> n = needs(c);
          if (!n.isEmpty() && (best.isEmpty() || rank(n) < rank(best))) {
            best = n;
          }
        }
        return best;
      }
      case Filter.FILTER_TYPE_OR -> {
        List<Need> all = new ArrayList<>();
        for (Filter c : f.getComponents()) {
          all.addAll(needs(c));
        }
        return all;
      }
      case Filter.FILTER_TYPE_NOT, Filter.FILTER_TYPE_EXTENSIBLE_MATCH -> {
        return List.of();
      }
      default -> {
        String attribute = FilterShape.canonical(f.getAttributeName());
        IndexType type = typeOf(f);
        if (attribute.equalsIgnoreCase("objectClass") || isIndexed(attribute, type)) {
          return List.of();
        }
        return List.of(new Need(attribute, type));
      }
    }
  }

  private static int rank(List<Need> needs) {
    int worst = 0;
    for (Need n : needs) {
      worst = Math.max(worst, PREFERENCE.indexOf(n.type()));
    }
    return worst * 100 + needs.size();
  }

  static IndexType typeOf(Filter leaf) {
    return switch (leaf.getFilterType()) {
      case Filter.FILTER_TYPE_PRESENCE -> IndexType.PRESENCE;
      case Filter.FILTER_TYPE_SUBSTRING -> IndexType.SUBSTRING;
      case Filter.FILTER_TYPE_GREATER_OR_EQUAL, Filter.FILTER_TYPE_LESS_OR_EQUAL ->
          IndexType.ORDERING;
      case Filter.FILTER_TYPE_APPROXIMATE_MATCH -> IndexType.APPROXIMATE;
      default -> IndexType.EQUALITY;
    };
  }

  /** The configured index of {@code attribute}, or null. */
  IndexConfig indexOf(String attribute) {
    for (IndexConfig index : backend.indexes()) {
      if (FilterShape.canonical(index.attribute()).equalsIgnoreCase(attribute)) {
        return index;
      }
    }
    return null;
  }

  private boolean isIndexed(String attribute, IndexType type) {
    IndexConfig index = indexOf(attribute);
    return index != null && index.types().contains(type.name().toLowerCase(Locale.ROOT));
  }
}
