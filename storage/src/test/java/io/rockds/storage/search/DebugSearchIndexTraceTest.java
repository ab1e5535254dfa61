package io.rockds.storage.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.Backend;
import io.rockds.storage.BackendSettings;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexSpec;
import io.rockds.storage.IndexType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three debugsearchindex examples of the seed (ForgeRock's "Better index troubleshooting"), run
 * against 10,000 entries shaped like makeldif's: the same JSON shape, counts from the data.
 */
class DebugSearchIndexTraceTest {
  private static final int USERS = 10_000;

  /** 97 first names, one of them containing "den" (about 103 entries, as in the seed). */
  private static final List<String> FIRST = firstNames();

  private static final int DENICE_USER = 5003;

  @TempDir static Path dir;
  static Backend backend;
  static EntryContainer container;
  static final List<String> cns = new ArrayList<>();

  @BeforeAll
  static void load() throws Exception {
    backend =
        Backend.open(
            BackendSettings.defaults("userRoot", dir.resolve("db"), SearchData.dn(SearchData.BASE))
                .withSyncWrites(false)
                .withIndexes(
                    List.of(
                        IndexSpec.of("objectClass", IndexType.EQUALITY),
                        IndexSpec.of("uid", IndexType.EQUALITY),
                        IndexSpec.of("cn", IndexType.EQUALITY, IndexType.SUBSTRING),
                        IndexSpec.of("mail", IndexType.EQUALITY, IndexType.SUBSTRING))),
            Schema.getDefaultStandardSchema());
    container = backend.containerFor(SearchData.dn(SearchData.BASE));
    SearchData.addSuffix(container);
    for (int i = 0; i < USERS; i++) {
      String cn = (i == DENICE_USER ? "Denice" : FIRST.get(i % FIRST.size())) + " Last" + (i % 89);
      cns.add(cn);
      container.add(
          new Entry(
              "uid=user." + i + "," + SearchData.PEOPLE,
              new Attribute(
                  "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
              new Attribute("uid", "user." + i),
              new Attribute("cn", cn),
              new Attribute("sn", "Last" + (i % 89)),
              new Attribute("mail", "user." + i + "@example.com")));
    }
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  @Test
  void intersectionOfExactKeysThenAShortFragmentRange() throws Exception {
    int den = count(i -> cns.get(i).toLowerCase(Locale.ROOT).contains("den"));
    int both =
        count(
            i ->
                cns.get(i).toLowerCase(Locale.ROOT).contains("den")
                    && ("user." + i).startsWith("user.19"));
    assertThat(both).isLessThanOrEqualTo(IndexFilter.FILTER_CANDIDATE_THRESHOLD);
    assertThat(trace(SearchData.BASE, SearchScope.SUB, "(&(cn=*Den*)(mail=user.19*))"))
        .isEqualTo(
            "{\"filter\":{\"intersection\":["
                + "{\"index\":\"mail.caseIgnoreIA5SubstringsMatch:6\",\"exact\":\"ser.19\",\"candidates\":111,\"retained\":111},"
                + "{\"index\":\"mail.caseIgnoreIA5SubstringsMatch:6\",\"exact\":\"user.1\",\"candidates\":1111,\"retained\":111},"
                + "{\"filter\":\"(cn=*Den*)\",\"index\":\"cn.caseIgnoreSubstringsMatch:6\",\"range\":\"[den,deo[\","
                + "\"candidates\":"
                + den
                + ",\"retained\":"
                + both
                + "}],\"candidates\":"
                + both
                + "},\"final\":"
                + both
                + "}");
  }

  @Test
  void unionOfTwoExactReads() throws Exception {
    assertThat(trace(SearchData.BASE, SearchScope.SUB, "(|(cn=*Denice*)(uid=user.19))"))
        .isEqualTo(
            "{\"filter\":{\"union\":["
                + "{\"filter\":\"(cn=*Denice*)\",\"index\":\"cn.caseIgnoreSubstringsMatch:6\",\"exact\":\"denice\",\"candidates\":1},"
                + "{\"filter\":\"(uid=user.19)\",\"index\":\"uid.caseIgnoreMatch\",\"exact\":\"user.19\",\"candidates\":1}],"
                + "\"candidates\":2},\"final\":2}");
  }

  @Test
  void oneLevelScopeOverTheEntryLimitIsNotIndexed() throws Exception {
    // The seed prints "(mail=user.1)" but shows a substring-index read of "user.1": the search was
    // (mail=user.1*).
    assertThat(trace(SearchData.PEOPLE, SearchScope.ONE, "(mail=user.1*)"))
        .isEqualTo(
            "{\"filter\":{\"filter\":\"(mail=user.1*)\",\"index\":\"mail.caseIgnoreIA5SubstringsMatch:6\","
                + "\"exact\":\"user.1\",\"candidates\":1111},"
                + "\"scope\":{\"type\":\"one\",\"candidates\":\"[NOT-INDEXED]\",\"retained\":1111},\"final\":1111}");
  }

  @Test
  void shortSubInitialReadsTheEqualityTreeAndSmallScopesNarrow() throws Exception {
    int user12 = count(i -> ("user." + i).startsWith("user.12"));
    assertThat(trace(SearchData.PEOPLE, SearchScope.SUB, "(uid=user.12*)"))
        .isEqualTo(
            "{\"filter\":{\"filter\":\"(uid=user.12*)\",\"index\":\"uid.caseIgnoreMatch\",\"range\":\"[user.12,user.13[\","
                + "\"candidates\":"
                + user12
                + "},"
                + "\"scope\":{\"type\":\"sub\",\"candidates\":\"[NOT-INDEXED]\",\"retained\":"
                + user12
                + "},"
                + "\"final\":"
                + user12
                + "}");
    assertThat(trace(SearchData.BASE, SearchScope.SUB, "(description=x)"))
        .isEqualTo(
            "{\"filter\":{\"filter\":\"(description=x)\",\"candidates\":\"[NOT-INDEXED]\"},"
                + "\"scope\":{\"type\":\"sub\",\"candidates\":\"[NOT-INDEXED]\",\"retained\":\"[NOT-INDEXED]\"},"
                + "\"final\":\"[NOT-INDEXED]\"}");
    assertThat(trace(SearchData.BASE, SearchScope.SUB, "(cn=den*)"))
        .startsWith(
            "{\"filter\":{\"filter\":\"(cn=den*)\",\"index\":\"cn.caseIgnoreMatch\",\"range\":\"[den,deo[\",\"candidates\":");
    assertThat(user12).isEqualTo(111);
    assertThat(trace(SearchData.BASE, SearchScope.BASE, "(objectClass=*)"))
        .isEqualTo("{\"scope\":{\"type\":\"base\",\"candidates\":1},\"final\":1}");
  }

  private static String trace(String base, SearchScope scope, String filter) throws Exception {
    return SearchCandidates.find(
            container,
            Schema.getDefaultStandardSchema(),
            SearchData.dn(base),
            scope,
            Filter.create(filter),
            0)
        .trace()
        .toJson();
  }

  private static int count(Predicate<Integer> test) {
    int n = 0;
    for (int i = 0; i < USERS; i++) {
      n += test.test(i) ? 1 : 0;
    }
    return n;
  }

  private static List<String> firstNames() {
    String[] starts = {"Ab", "Bo", "Ca", "Fe", "Ga", "Ha", "Jo", "Ka", "Lu", "Ma", "No", "Pa"};
    String[] ends = {"bby", "lla", "rry", "ssa", "nne", "tty", "mmy", "rk"};
    List<String> names = new ArrayList<>();
    for (String s : starts) {
      for (String e : ends) {
        names.add(s + e);
      }
    }
    names.add("Eden");
    return names;
  }
}
