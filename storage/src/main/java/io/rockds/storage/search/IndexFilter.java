package io.rockds.storage.search;

import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IdSet;
import io.rockds.storage.StorageErrors;
import io.rockds.storage.matching.Deadline;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocksdb.RocksDBException;

/**
 * Phase 1 of a search: the candidate entry IDs of a filter, from the container's trusted indexes,
 * as OpenDJ's {@code IndexFilter} builds them.
 *
 * <ul>
 *   <li>AND intersects its components' index reads, cheapest first ({@link Lookup.Category}), with
 *       a substring filter's n-gram reads and a {@code >=}/{@code <=} pair on one attribute (merged
 *       into one bounded range) taking part as separate steps; it stops as soon as the set holds at
 *       most {@value #FILTER_CANDIDATE_THRESHOLD} IDs, because reading that many entries is cheaper
 *       than another index read.
 *   <li>OR unites its components and is undefined as soon as one is.
 *   <li>NOT, unindexed attributes and unindexed extensible matches are undefined: all entries.
 * </ul>
 *
 * Every read is written to the returned {@link Trace} as it happens.
 */
public final class IndexFilter {
  /** An intersection stops once it is this small (OpenDJ's FILTER_CANDIDATE_THRESHOLD). */
  public static final int FILTER_CANDIDATE_THRESHOLD = 10;

  /** A range read gathering more IDs than this is undefined (OpenDJ's CURSOR_ENTRY_LIMIT). */
  public static final int CURSOR_ENTRY_LIMIT = 100_000;

  private final LeafLookups leaves;

  private final Deadline deadline;

  public IndexFilter(EntryContainer container, Schema schema, VirtualIndexes virtual) {
    this(container, schema, virtual, Deadline.NONE);
  }

  /**
   * Candidates that stop being read once {@code deadline} has passed: an OR then has undefined
   * candidates, an AND those of the steps already run (a superset, still correct); the caller
   * checks its time limit right after.
   */
  public IndexFilter(
      EntryContainer container, Schema schema, VirtualIndexes virtual, Deadline deadline) {
    this.leaves = new LeafLookups(container, schema, virtual);
    this.deadline = deadline;
  }

  /** The candidates of {@code filter} and the trace of the reads that found them. */
  public Evaluated evaluate(Filter filter) throws LDAPException {
    try {
      return evaluateFilter(filter);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  private Evaluated evaluateFilter(Filter filter) throws RocksDBException, LDAPException {
    return switch (filter.getFilterType()) {
      case Filter.FILTER_TYPE_AND -> intersect(stepsOf(filter.getComponents()), new Trace());
      case Filter.FILTER_TYPE_OR -> unite(filter.getComponents());
      default -> {
        List<Lookup> steps = leafSteps(filter);
        if (steps.size() == 1) {
          yield steps.get(0).run();
        }
        yield intersect(steps, new Trace().put("filter", filter.toString()));
      }
    };
  }

  private Evaluated unite(Filter[] components) throws RocksDBException, LDAPException {
    Trace trace = new Trace();
    List<Trace> union = trace.list("union");
    IdSet ids = IdSet.empty();
    boolean exact = true;
    for (Filter component : components) {
      if (deadline.passed()) {
        trace.put("stopped", "time limit exceeded");
        return new Evaluated(IdSet.undefined(IdSet.Undefined.NOT_INDEXED), trace);
      }
      Evaluated e = evaluateFilter(component);
      union.add(e.trace());
      ids = ids.union(e.ids());
      exact &= e.exact();
      if (!ids.isDefined()) {
        break;
      }
    }
    trace.putCount("candidates", ids);
    return new Evaluated(ids, trace, exact && ids.isDefined());
  }

  /** Runs the steps cheapest first, recording each step's candidates and what remains after it. */
  private Evaluated intersect(List<Lookup> steps, Trace trace)
      throws RocksDBException, LDAPException {
    List<Lookup> ordered = new ArrayList<>(steps);
    ordered.sort(Comparator.comparing(Lookup::category));
    List<Trace> intersection = trace.list("intersection");
    IdSet ids = IdSet.undefined(IdSet.Undefined.NOT_INDEXED);
    // Exact only if every step ran and was exact: a step skipped below the threshold still has to
    // be tested.
    boolean exact = true;
    int run = 0;
    for (Lookup step : ordered) {
      if (ids.isDefined() && ids.size() <= FILTER_CANDIDATE_THRESHOLD) {
        break;
      }
      if (deadline.passed()) {
        trace.put("stopped", "time limit exceeded");
        break;
      }
      Evaluated e = step.run();
      run++;
      exact &= e.exact();
      ids = ids.intersect(e.ids());
      e.trace().putCount("retained", ids);
      intersection.add(e.trace());
    }
    trace.putCount("candidates", ids);
    return new Evaluated(ids, trace, exact && run == ordered.size() && ids.isDefined());
  }

  /** The steps of an AND's components, flattened; {@code >=}/{@code <=} pairs merged. */
  private List<Lookup> stepsOf(Filter[] components) {
    List<Lookup> steps = new ArrayList<>();
    Map<String, List<Filter>> bounds = new LinkedHashMap<>();
    for (Filter component : components) {
      switch (component.getFilterType()) {
        case Filter.FILTER_TYPE_AND -> steps.addAll(stepsOf(component.getComponents()));
        case Filter.FILTER_TYPE_OR ->
            steps.add(new Lookup(Lookup.Category.OTHER, null, label -> evaluateFilter(component)));
        case Filter.FILTER_TYPE_GREATER_OR_EQUAL, Filter.FILTER_TYPE_LESS_OR_EQUAL ->
            bounds
                .computeIfAbsent(
                    component.getAttributeName().toLowerCase(Locale.ROOT), a -> new ArrayList<>())
                .add(component);
        default -> steps.addAll(leafSteps(component));
      }
    }
    for (List<Filter> sameAttribute : bounds.values()) {
      steps.addAll(rangeSteps(sameAttribute));
    }
    return steps;
  }

  /**
   * One bounded range for the first {@code >=} and {@code <=} of an attribute; the others alone.
   */
  private List<Lookup> rangeSteps(List<Filter> filters) {
    Filter lower = null;
    Filter upper = null;
    List<Lookup> steps = new ArrayList<>();
    for (Filter f : filters) {
      boolean isLower = f.getFilterType() == Filter.FILTER_TYPE_GREATER_OR_EQUAL;
      if (isLower && lower == null) {
        lower = f;
      } else if (!isLower && upper == null) {
        upper = f;
      } else {
        steps.addAll(leafSteps(f));
      }
    }
    if (lower != null && upper != null) {
      steps.add(
          leaves
              .boundedRange(lower, upper)
              .labelled(Filter.createANDFilter(lower, upper).toString()));
    } else {
      steps.addAll(leafSteps(lower != null ? lower : upper));
    }
    return steps;
  }

  /** A leaf filter's steps; a single step is labelled with the filter itself. */
  private List<Lookup> leafSteps(Filter filter) {
    List<Lookup> steps = leaves.of(filter);
    return steps.size() == 1 ? List.of(steps.get(0).labelled(filter.toString())) : steps;
  }
}
