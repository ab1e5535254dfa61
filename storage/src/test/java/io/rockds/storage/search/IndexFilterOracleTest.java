package io.rockds.storage.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IdSet;
import io.rockds.storage.matching.FilterEvaluator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Phase 1 plus phase 2 must return exactly what a full scan with the same evaluator returns, for
 * every filter type alone and nested, on data where many keys are over a small entry limit.
 */
class IndexFilterOracleTest {
  private static final int ENTRIES = 700;
  private static final int ENTRY_LIMIT = 40;
  private static final int ITERATIONS = 800;
  private static final String[] VALUE_ATTRIBUTES = {
    "uid",
    "cn",
    "sn",
    "givenName",
    "mail",
    "telephoneNumber",
    "employeeNumber",
    "description",
    "l",
    "cn;lang-fr",
    "description;lang-fr",
    "objectClass"
  };
  private static final String[] ORDERED_ATTRIBUTES = {
    "givenName", "changeNumber", "employeeNumber", "sn"
  };

  @TempDir static Path dir;
  static Backend backend;
  static EntryContainer container;
  static final List<Entry> entries = new ArrayList<>();

  /** Every stored entry by ID, read back once: the oracle scans these. */
  static final Map<Long, Entry> stored = new TreeMap<>();

  static final FilterEvaluator evaluator = new FilterEvaluator(SearchData.schema());

  @BeforeAll
  static void load() throws Exception {
    backend = SearchData.open(dir.resolve("db"), ENTRY_LIMIT);
    container = backend.containerFor(SearchData.dn(SearchData.BASE));
    SearchData.addSuffix(container);
    for (int i = 0; i < ENTRIES; i++) {
      Entry e = SearchData.person(i);
      entries.add(e);
      container.add(e);
    }
    for (long id :
        container.scopeIds(SearchData.dn(SearchData.BASE), SearchScope.SUB, 0).toArray()) {
      stored.put(id, container.get(id));
    }
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  @Test
  void everyFilterTypeAloneAndNestedMatchesTheFullScan() throws Exception {
    Random random = new Random(20261122L);
    int defined = 0;
    int overLimit = 0;
    int proven = 0;
    int checked = 0;
    for (int i = 0; i < ITERATIONS; i++) {
      Filter filter = randomFilter(random, i % 3);
      SearchScope scope = i % 4 == 0 ? SearchScope.ONE : SearchScope.SUB;
      DN base = SearchData.dn(i % 4 == 0 ? SearchData.PEOPLE : SearchData.BASE);
      SearchCandidates.Result result =
          SearchCandidates.find(container, SearchData.schema(), base, scope, filter, 0);
      TreeSet<Long> expected = fullScan(filter, base, scope);
      TreeSet<Long> actual = verify(result.ids(), filter, base, scope);
      assertThat(actual)
          .as("%s scope=%s trace=%s", filter, scope, result.trace())
          .isEqualTo(expected);
      if (result.indexed()) {
        defined++;
      }
      if (result.filterProven()) {
        // Proven candidates need no filter test: the scope alone must give exactly the matches.
        assertThat(inScope(result.ids(), base, scope))
            .as("proven %s scope=%s trace=%s", filter, scope, result.trace())
            .isEqualTo(expected);
        proven++;
      }
      if (result.trace().toJson().contains("LIMIT-EXCEEDED")) {
        overLimit++;
      }
      checked++;
    }
    assertThat(checked).isEqualTo(ITERATIONS);
    // The test must exercise both indexed evaluation and keys over the entry limit.
    assertThat(defined).isGreaterThan(ITERATIONS / 5);
    assertThat(overLimit).isGreaterThan(ITERATIONS / 20);
    assertThat(proven).isGreaterThan(ITERATIONS / 20);
  }

  @Test
  void onlyEqualityAndPresenceOfTheAttributeItselfProveTheFilter() throws Exception {
    assertThat(proven("(uid=user.7)")).isTrue();
    assertThat(proven("(UID=USER.7)")).isTrue();
    assertThat(proven("(|(uid=user.7)(mail=user.8@example.com))")).isTrue();
    assertThat(proven("(&(uid=user.7)(mail=user.7@example.com))"))
        .isFalse(); // stops after one key: mail untested
    assertThat(proven("(cn;lang-fr=x)")).isFalse(); // the cn index holds every cn option's values
    assertThat(proven("(cn=*den*)")).isFalse();
    assertThat(proven("(sn~=Zhang)")).isFalse();
    assertThat(proven("(givenName>=Ro)")).isFalse();
    assertThat(proven("(uid:caseIgnoreMatch:=user.3)")).isFalse();
    assertThat(proven("(|(uid=user.1)(l=Paris))")).isFalse();
  }

  private static boolean proven(String filter) throws Exception {
    return SearchCandidates.find(
            container,
            SearchData.schema(),
            SearchData.dn(SearchData.BASE),
            SearchScope.SUB,
            Filter.create(filter),
            0)
        .filterProven();
  }

  private static TreeSet<Long> inScope(IdSet candidates, DN base, SearchScope scope)
      throws Exception {
    TreeSet<Long> out = new TreeSet<>();
    for (long id : candidates.toArray()) {
      Entry e = container.get(id);
      if (e != null && e.getParsedDN().matchesBaseAndScope(base, scope)) {
        out.add(id);
      }
    }
    return out;
  }

  @Test
  void knownShapesAreIndexedAsOpenDjDoes() throws Exception {
    assertThat(candidates("(uid=user.7)").size()).isEqualTo(1);
    assertThat(candidates("(description=*)").undefinedReason())
        .isEqualTo(IdSet.Undefined.LIMIT_EXCEEDED);
    assertThat(candidates("(givenName>=Ro)").isDefined()).isTrue();
    assertThat(candidates("(&(changeNumber>=10)(changeNumber<=20))").isDefined()).isTrue();
    assertThat(candidates("(sn~=Smith)").isDefined())
        .isFalse(); // Smith/Smyth share S530: over the limit
    assertThat(trace("(sn~=Zhang)"))
        .contains("\"index\":\"sn.soundexApproximateMatch\",\"exact\":\"Z520\"");
    assertThat(candidates("(&(sn~=Zhang)(uid=user.9))").size()).isEqualTo(1);
    assertThat(candidates("(!(uid=user.7))").isDefined()).isFalse();
    assertThat(candidates("(l=Paris)").isDefined()).isFalse();
    assertThat(candidates("(|(uid=user.1)(l=Paris))").isDefined()).isFalse();
    assertThat(candidates("(&(uid=user.1)(l=Paris))").size()).isEqualTo(1);
    assertThat(candidates("(uid:caseIgnoreMatch:=user.3)").size()).isEqualTo(1);
    assertThat(candidates("(uid:dn:=user.3)").isDefined()).isFalse();
  }

  private static IdSet candidates(String filter) throws Exception {
    return new IndexFilter(container, SearchData.schema(), VirtualIndexes.NONE)
        .evaluate(Filter.create(filter))
        .ids();
  }

  private static String trace(String filter) throws Exception {
    return new IndexFilter(container, SearchData.schema(), VirtualIndexes.NONE)
        .evaluate(Filter.create(filter))
        .trace()
        .toJson();
  }

  /** The IDs of the entries in scope that match, by evaluating every stored entry. */
  private static TreeSet<Long> fullScan(Filter filter, DN base, SearchScope scope)
      throws Exception {
    TreeSet<Long> out = new TreeSet<>();
    for (Map.Entry<Long, Entry> stored : stored.entrySet()) {
      Entry e = stored.getValue();
      if (e.getParsedDN().matchesBaseAndScope(base, scope) && evaluator.matches(filter, e)) {
        out.add(stored.getKey());
      }
    }
    return out;
  }

  /**
   * Phase 2 over the candidates; undefined candidates mean every entry, which is the full scan
   * itself.
   */
  private static TreeSet<Long> verify(IdSet candidates, Filter filter, DN base, SearchScope scope)
      throws Exception {
    if (!candidates.isDefined()) {
      return fullScan(filter, base, scope);
    }
    TreeSet<Long> out = new TreeSet<>();
    for (long id : candidates.toArray()) {
      Entry e = container.get(id);
      if (e != null
          && e.getParsedDN().matchesBaseAndScope(base, scope)
          && evaluator.matches(filter, e)) {
        out.add(id);
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- random filters

  private static Filter randomFilter(Random r, int depth) {
    if (depth > 0 && r.nextInt(3) > 0) {
      int n = 1 + r.nextInt(3);
      Filter[] components = new Filter[n];
      for (int i = 0; i < n; i++) {
        components[i] = randomFilter(r, depth - 1);
      }
      return switch (r.nextInt(5)) {
        case 0, 1 -> Filter.createANDFilter(components);
        case 2, 3 -> Filter.createORFilter(components);
        default -> Filter.createNOTFilter(components[0]);
      };
    }
    return randomLeaf(r);
  }

  private static Filter randomLeaf(Random r) {
    Entry sample = entries.get(r.nextInt(entries.size()));
    String attribute = VALUE_ATTRIBUTES[r.nextInt(VALUE_ATTRIBUTES.length)];
    String value = sample.getAttributeValue(attribute);
    if (value == null) {
      value = "person number " + r.nextInt(ENTRIES);
    }
    return switch (r.nextInt(9)) {
      case 0, 1 ->
          Filter.createEqualityFilter(attribute, r.nextBoolean() ? value.toUpperCase() : value);
      case 2 -> Filter.createPresenceFilter(attribute);
      case 3, 4 -> substring(r, attribute, value);
      case 5 -> ordering(r, sample);
      case 6 -> Filter.createANDFilter(ordering(r, sample), ordering(r, sample));
      case 7 ->
          Filter.createApproximateMatchFilter(
              "sn",
              r.nextBoolean()
                  ? sample.getAttributeValue("sn")
                  : SearchData.LAST[r.nextInt(SearchData.LAST.length)].replace('i', 'y'));
      default ->
          Filter.createExtensibleMatchFilter(
              r.nextBoolean() ? "uid" : null,
              "caseIgnoreMatch",
              r.nextInt(4) == 0,
              sample.getAttributeValue("uid"));
    };
  }

  private static Filter ordering(Random r, Entry sample) {
    String attribute = ORDERED_ATTRIBUTES[r.nextInt(ORDERED_ATTRIBUTES.length)];
    String value = sample.getAttributeValue(attribute);
    return r.nextBoolean()
        ? Filter.createGreaterOrEqualFilter(attribute, value)
        : Filter.createLessOrEqualFilter(attribute, value);
  }

  private static Filter substring(Random r, String attribute, String value) {
    String initial = r.nextInt(3) > 0 ? fragment(r, value, true) : null;
    String any = r.nextBoolean() ? fragment(r, value, false) : null;
    String end =
        r.nextInt(3) == 0
            ? value.substring(value.length() - Math.min(value.length(), 1 + r.nextInt(8)))
            : null;
    if (initial == null && any == null && end == null) {
      any = fragment(r, value, false);
    }
    return Filter.createSubstringFilter(
        attribute, initial, any == null ? null : new String[] {any}, end);
  }

  private static String fragment(Random r, String value, boolean initial) {
    int from = initial ? 0 : r.nextInt(value.length());
    int length = 1 + r.nextInt(9);
    return value.substring(from, Math.min(value.length(), from + length));
  }
}
