package io.rockds.storage.search;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IdSet;
import io.rockds.storage.SearchBase;
import io.rockds.storage.matching.Deadline;
import io.rockds.storage.matching.FilterEvaluator;
import io.rockds.storage.matching.PreparedFilter;

/**
 * Phase 1 of a search as a whole: the filter's candidates ({@link IndexFilter}) narrowed by the
 * scope, as OpenDJ's {@code EntryContainer.search} does. A base search is one dn2id read. Other
 * scopes read the children or the subtree from dn2id, unless the filter already gave at most
 * {@value IndexFilter#FILTER_CANDIDATE_THRESHOLD} IDs; past {@link #scopeCap} IDs the scope is
 * undefined and phase 2 checks each entry's DN instead.
 */
public final class SearchCandidates {
  private SearchCandidates() {}

  /**
   * The candidates of a search and the whole {@code debugsearchindex} trace, e.g. {@code
   * {"filter":{...},"scope":{"type":"one","candidates":"[NOT-INDEXED]","retained":1111},"final":1111}}.
   * When {@link #ids()} is undefined the search is unindexed. {@code filterProven}: every candidate
   * matches the filter (the indexes answered it exactly, {@link Evaluated#exact()}); only the scope
   * remains to be checked.
   */
  public record Result(IdSet ids, Trace trace, boolean filterProven) {
    public boolean indexed() {
      return ids.isDefined();
    }
  }

  /**
   * @param lookthroughLimit the requester's lookthrough limit (0 = none); it also bounds the scope
   *     set, as in OpenDJ
   */
  public static Result find(
      EntryContainer container,
      Schema schema,
      DN base,
      SearchScope scope,
      Filter filter,
      int lookthroughLimit)
      throws LDAPException {
    return find(
        container,
        schema,
        VirtualIndexes.NONE,
        container.searchBase(base, scope),
        filter,
        lookthroughLimit,
        Deadline.NONE);
  }

  /**
   * {@link #find(EntryContainer, Schema, DN, SearchScope, Filter, int)} of a base already read,
   * answering virtual attributes too, whose index reads stop once {@code deadline} has passed (see
   * {@link IndexFilter}): check the time limit before using the result.
   */
  public static Result find(
      EntryContainer container,
      Schema schema,
      VirtualIndexes virtual,
      SearchBase base,
      Filter filter,
      int lookthroughLimit,
      Deadline deadline)
      throws LDAPException {
    Trace trace = new Trace();
    SearchScope scope = base.scope();
    if (scope == SearchScope.BASE) {
      IdSet ids = container.scopeIds(base, 0);
      trace.put("scope", new Trace().put("type", "base").putCount("candidates", ids));
      trace.putCount("final", ids);
      return new Result(ids, trace, false);
    }
    Evaluated filtered = new IndexFilter(container, schema, virtual, deadline).evaluate(filter);
    trace.put("filter", filtered.trace());
    IdSet ids = filtered.ids();
    if (!ids.isDefined() || ids.size() > IndexFilter.FILTER_CANDIDATE_THRESHOLD) {
      IdSet inScope = scopeIds(container, base, scopeCap(container, lookthroughLimit));
      ids = ids.intersect(inScope);
      trace.put(
          "scope",
          new Trace()
              .put("type", scopeName(scope))
              .putCount("candidates", inScope)
              .putCount("retained", ids));
    }
    trace.putCount("final", ids);
    return new Result(ids, trace, filtered.exact() && ids.isDefined());
  }

  /** Receives each matching entry of {@link #visitMatches}; returns false to stop. */
  @FunctionalInterface
  public interface MatchVisitor {
    boolean visit(Entry entry) throws LDAPException;
  }

  /**
   * The server's internal lookups (SASL users by uid, ACI group members): every entry of the
   * container matching {@code filter}, from the index candidates when they are defined, else by
   * walking the suffix for at most {@code maxExamined} entries (0 = no bound). No access control,
   * no limits: callers are the server itself.
   */
  public static void visitMatches(
      EntryContainer container, Schema schema, Filter filter, int maxExamined, MatchVisitor visitor)
      throws LDAPException {
    PreparedFilter matching = new FilterEvaluator(schema).prepare(filter);
    SearchBase suffix = container.searchBase(container.baseDn(), SearchScope.SUB);
    IdSet candidates =
        find(container, schema, VirtualIndexes.NONE, suffix, filter, 0, Deadline.NONE).ids();
    if (candidates.isDefined()) {
      for (long id : candidates.toArray()) {
        Entry entry = container.get(id);
        if (entry != null && matching.matches(entry) && !visitor.visit(entry)) {
          return;
        }
      }
      return;
    }
    int[] examined = {0};
    container.visitScope(
        suffix,
        (key, id) -> {
          Entry entry = container.get(id);
          if (entry != null && matching.matches(entry) && !visitor.visit(entry)) {
            return false;
          }
          return maxExamined <= 0 || ++examined[0] < maxExamined;
        });
  }

  /**
   * The scope's IDs, or undefined past {@code cap}. A subtree search of the whole suffix cannot
   * narrow anything (every ID of the container is in it), so no dn2id key is read: with defined
   * candidates it would read {@code cap} keys to learn nothing, and with undefined ones the search
   * examines every entry of the suffix, which is what "unindexed" means to an operator. OpenDJ
   * reads the scope in that second case and calls a search of a small suffix indexed; we do not, so
   * that whether an unfiltered search is tagged {@code unindexed} (and needs the privilege) does
   * not depend on how many entries the suffix holds today.
   */
  private static IdSet scopeIds(EntryContainer container, SearchBase base, int cap)
      throws LDAPException {
    if (container.holdsWholeScope(base)) {
      return IdSet.undefined(IdSet.Undefined.NOT_INDEXED);
    }
    return container.scopeIds(base, cap);
  }

  /**
   * The most IDs a scope set may hold: the index entry limit (or the cursor limit), and the
   * lookthrough limit.
   */
  static int scopeCap(EntryContainer container, int lookthroughLimit) {
    int entryLimit = container.backend().entryLimits().backendLimit().limit();
    int cap = entryLimit > 0 ? entryLimit : IndexFilter.CURSOR_ENTRY_LIMIT;
    return lookthroughLimit > 0 ? Math.min(cap, lookthroughLimit) : cap;
  }

  /** OpenDJ's names: base, one, sub, subordinates. */
  static String scopeName(SearchScope scope) {
    return switch (scope.intValue()) {
      case SearchScope.BASE_INT_VALUE -> "base";
      case SearchScope.ONE_INT_VALUE -> "one";
      case SearchScope.SUBORDINATE_SUBTREE_INT_VALUE -> "subordinates";
      default -> "sub";
    };
  }
}
