package io.rockds.tools.advisor;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.BackendConfig;
import io.rockds.config.ConfigException;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexKey;
import io.rockds.storage.IndexType;
import io.rockds.storage.maintenance.IndexStatistics;
import io.rockds.storage.maintenance.IndexStats;
import io.rockds.storage.maintenance.KeyCount;
import io.rockds.tools.InstanceStorage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Turns logged searches and the index records they hit into {@link Suggestion}s.
 *
 * <p>Two questions, as an operator would ask them. Which filters run unindexed often, and which
 * index would have served them ({@link IndexNeeds})? And which equality keys that searches actually
 * use are over, or within 15% of ({@link IndexStats#nearLimitKeys}), their index-entry-limit (the
 * seed's {@code sn=Lee} with more than 4000 Lees)? The second is answered from the database: the
 * key's exact ID count (kept for over-limit keys) decides the new limit, just above the count,
 * unless the key holds more than half the entries, where no limit makes the index worth reading:
 * that is said only when the key is the whole filter (a lone {@code (objectClass=inetOrgPerson)}),
 * since beside a selective component such a key is expected.
 */
public final class IndexAdvisor {
  private static final double LIMIT_HEADROOM = 1.1;

  private record NeededIndex(String backendId, String baseDn, String attribute, IndexType type) {}

  private record ValueKey(String backendId, String baseDn, String attribute, String value) {}

  private final InstanceStorage storage;
  private final int minSearches;
  private final Map<NeededIndex, Evidence> unindexed = new LinkedHashMap<>();
  private final Map<ValueKey, Evidence> equalityValues = new LinkedHashMap<>();

  /** Values searched as the whole filter: nothing else in it could have been indexed. */
  private final Set<ValueKey> searchedAlone = new HashSet<>();

  private long searches;
  private long unindexedSearches;

  /**
   * @param minSearches how many searches a suggestion needs as evidence
   */
  public IndexAdvisor(InstanceStorage storage, int minSearches) {
    this.storage = storage;
    this.minSearches = minSearches;
  }

  /**
   * Accounts one logged search; filters that do not parse and bases no backend holds are skipped.
   */
  public void add(SearchRecord search) {
    Filter filter;
    DN base;
    try {
      filter = Filter.create(search.filter());
      base = new DN(search.base());
    } catch (LDAPException e) {
      return;
    }
    BackendConfig backend = backendFor(base);
    if (backend == null) {
      return;
    }
    searches++;
    String baseDn = baseDnOf(backend, base).toString();
    String shape = FilterShape.of(filter);
    if (search.unindexed()) {
      unindexedSearches++;
      for (IndexNeeds.Need need : new IndexNeeds(backend).missing(filter)) {
        unindexed.merge(
            new NeededIndex(backend.id(), baseDn, need.attribute(), need.type()),
            Evidence.first(search, shape),
            (a, b) -> a.plus(search));
      }
    }
    for (Filter leaf : equalityLeaves(filter, new ArrayList<>())) {
      String attribute = FilterShape.canonical(leaf.getAttributeName());
      ValueKey value = new ValueKey(backend.id(), baseDn, attribute, leaf.getAssertionValue());
      equalityValues.merge(value, Evidence.first(search, shape), (a, b) -> a.plus(search));
      if (leaf == filter) {
        searchedAlone.add(value);
      }
    }
  }

  public long searches() {
    return searches;
  }

  public long unindexedSearches() {
    return unindexedSearches;
  }

  /** The suggestions, heaviest total etime first: indexes to add, then limits to change. */
  public List<Suggestion> suggestions() throws LDAPException, ConfigException {
    List<Suggestion> result = new ArrayList<>();
    for (Map.Entry<NeededIndex, Evidence> e : unindexed.entrySet()) {
      if (e.getValue().searches() >= minSearches) {
        NeededIndex k = e.getKey();
        boolean exists =
            new IndexNeeds(storage.backend(k.backendId())).indexOf(k.attribute()) != null;
        result.add(
            new Suggestion.AddIndex(
                k.backendId(), k.baseDn(), k.attribute(), k.type(), exists, e.getValue()));
      }
    }
    result.sort(heaviestFirst());
    List<Suggestion> limits = limitSuggestions();
    limits.sort(heaviestFirst());
    result.addAll(limits);
    return result;
  }

  private List<Suggestion> limitSuggestions() throws LDAPException, ConfigException {
    Map<String, List<Map.Entry<ValueKey, Evidence>>> byBackend = new LinkedHashMap<>();
    for (Map.Entry<ValueKey, Evidence> e : equalityValues.entrySet()) {
      if (e.getValue().searches() >= minSearches) {
        byBackend.computeIfAbsent(e.getKey().backendId(), id -> new ArrayList<>()).add(e);
      }
    }
    List<Suggestion> result = new ArrayList<>();
    for (Map.Entry<String, List<Map.Entry<ValueKey, Evidence>>> perBackend : byBackend.entrySet()) {
      try (Backend backend = storage.openReadOnly(storage.backend(perBackend.getKey()))) {
        Map<AttributeIndex, IndexStats> stats = new HashMap<>();
        for (Map.Entry<ValueKey, Evidence> e : perBackend.getValue()) {
          Suggestion s = limitSuggestion(backend, stats, e.getKey(), e.getValue());
          if (s != null) {
            result.add(s);
          }
        }
      }
    }
    return result;
  }

  /**
   * A limit change when the searched key is over or near its limit, from the index's statistics.
   */
  private Suggestion limitSuggestion(
      Backend backend, Map<AttributeIndex, IndexStats> stats, ValueKey v, Evidence evidence)
      throws LDAPException {
    EntryContainer container = backend.containerFor(new DN(v.baseDn()));
    AttributeIndex index =
        container == null ? null : container.index(v.attribute(), IndexType.EQUALITY);
    byte[] normalized = index == null ? null : index.normalize(new ASN1OctetString(v.value()));
    if (normalized == null) {
      return null;
    }
    IndexStats indexStats =
        stats.computeIfAbsent(index, i -> new IndexStatistics(container).of(List.of(i)).get(0));
    IndexKey key = new IndexKey(normalized);
    Long count =
        Stream.concat(indexStats.overLimitKeys().stream(), indexStats.nearLimitKeys().stream())
            .filter(k -> k.key().equals(key))
            .map(KeyCount::count)
            .findFirst()
            .orElse(null);
    if (count == null) {
      return null;
    }
    long entries = container.entryCount();
    Integer newLimit =
        count * 2 > entries ? null : roundUp((long) Math.ceil(count * LIMIT_HEADROOM));
    if (newLimit == null && !searchedAlone.contains(v)) {
      return null; // e.g. objectClass=person beside a selective component: normal, nothing to say
    }
    return new Suggestion.ChangeLimit(
        backend.id(),
        v.baseDn(),
        index.name(),
        v.attribute(),
        index.keyToString(normalized),
        count,
        indexStats.limit().limit(),
        entries,
        newLimit,
        evidence);
  }

  /** Up to a round hundred, so the limit reads as chosen by a person. */
  private static int roundUp(long n) {
    return (int) Math.min(Integer.MAX_VALUE, (n + 99) / 100 * 100);
  }

  private static Comparator<Suggestion> heaviestFirst() {
    return Comparator.comparingLong((Suggestion s) -> s.evidence().totalEtimeMillis())
        .thenComparingLong(s -> s.evidence().searches())
        .reversed();
  }

  private static List<Filter> equalityLeaves(Filter f, List<Filter> into) {
    switch (f.getFilterType()) {
      case Filter.FILTER_TYPE_AND, Filter.FILTER_TYPE_OR -> {
        for (Filter c : f.getComponents()) {
          equalityLeaves(c, into);
        }
      }
      case Filter.FILTER_TYPE_EQUALITY -> into.add(f);
      default -> {
        // NOT never uses an index; other leaf types have no single key to look up.
      }
    }
    return into;
  }

  private BackendConfig backendFor(DN base) {
    for (BackendConfig b : storage.config().backends()) {
      if (b.enabled() && baseDnOf(b, base) != null) {
        return b;
      }
    }
    return null;
  }

  private static DN baseDnOf(BackendConfig backend, DN dn) {
    for (DN baseDn : backend.baseDns()) {
      if (dn.isDescendantOf(baseDn, true)) {
        return baseDn;
      }
    }
    return null;
  }
}
