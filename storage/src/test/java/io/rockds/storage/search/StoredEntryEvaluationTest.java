package io.rockds.storage.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import io.rockds.storage.AttributeProjection;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.StorageFixtures;
import io.rockds.storage.StoredEntry;
import io.rockds.storage.matching.FilterEvaluator;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entries read back from storage are evaluated by name lookups when none of their attributes has
 * options, by a walk over every attribute otherwise: both must give what the entry as written
 * gives.
 */
class StoredEntryEvaluationTest {
  private static final List<String> FILTERS =
      List.of(
          "(cn=jean dupont)",
          "(cn;lang-fr=Jean Dupont)",
          "(cn;lang-fr=John Doe)",
          "(name=JOHN DOE)",
          "(2.5.4.3=john doe)",
          "(commonName=*oh*)",
          "(cn=*)",
          "(sn=Doe)",
          "(objectClass=person)",
          "(&(uid=jdoe)(!(sn=Smith)))",
          "(givenName=*)",
          "(member=*)");

  private final FilterEvaluator evaluator = new FilterEvaluator(SearchData.schema());

  @Test
  void storedEntriesMatchAsWrittenOnes(@TempDir Path dir) throws Exception {
    Entry plain =
        new Entry(
            "uid=jdoe,ou=People,dc=example,dc=com",
            new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
            new Attribute("uid", "jdoe"),
            new Attribute("CN", "John Doe"),
            new Attribute("sn", "Doe"));
    Entry withOptions =
        new Entry(
            "uid=jdupont,ou=People,dc=example,dc=com",
            new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
            new Attribute("uid", "jdupont"),
            new Attribute("cn", "John Doe"),
            new Attribute("cn;lang-fr", "Jean Dupont"),
            new Attribute("sn", "Doe"));
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      StorageFixtures.addTree(c);
      c.add(plain);
      c.add(withOptions);
      Entry storedPlain = c.get(plain.getParsedDN());
      Entry storedWithOptions = c.get(withOptions.getParsedDN());
      assertThat(storedPlain)
          .isInstanceOfSatisfying(
              StoredEntry.class, e -> assertThat(e.hasAttributeOptions()).isFalse());
      assertThat(storedWithOptions)
          .isInstanceOfSatisfying(
              StoredEntry.class, e -> assertThat(e.hasAttributeOptions()).isTrue());
      for (String text : FILTERS) {
        Filter filter = Filter.create(text);
        assertThat(evaluator.evaluate(filter, storedPlain))
            .as(text + " on " + plain.getDN())
            .isEqualTo(evaluator.evaluate(filter, plain));
        assertThat(evaluator.evaluate(filter, storedWithOptions))
            .as(text + " on " + withOptions.getDN())
            .isEqualTo(evaluator.evaluate(filter, withOptions));
      }
      assertThat(evaluator.matches(Filter.create("(cn=jean dupont)"), storedWithOptions)).isTrue();
      assertThat(evaluator.matches(Filter.create("(cn=john doe)"), storedPlain)).isTrue();
    }
  }

  @Test
  void entriesReadWithOnlyTheTestedAttributesEvaluateAsWholeOnes(@TempDir Path dir)
      throws Exception {
    Entry written = jdupont();
    store(dir, written);
    List<String> filters = new java.util.ArrayList<>(FILTERS);
    filters.addAll(
        List.of(
            "(name=jean dupont)", "(:caseExactMatch:=Doe)", "(ou:dn:=People)", "(description=*)"));
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      long id = c.idOf(written.getParsedDN());
      for (String text : filters) {
        Filter filter = Filter.create(text);
        Entry partial =
            c.peek(id, new AttributeProjection(evaluator.prepare(filter).attributesTested()));
        assertThat(evaluator.evaluate(filter, partial))
            .as(text)
            .isEqualTo(evaluator.evaluate(filter, written));
      }
      Entry forCn =
          c.peek(
              id,
              new AttributeProjection(
                  evaluator.prepare(Filter.create("(cn=*son*)")).attributesTested()));
      assertThat(forCn.getAttributes())
          .extracting(Attribute::getName)
          .containsExactlyInAnyOrder("cn", "cn;lang-fr");
      assertThat(forCn.getDN()).isEqualTo(written.getDN());
    }
  }

  /**
   * A scan tests its filter on a partial decode and completes the entries that match from the
   * record it read: the result is the whole entry, in its stored attribute order, and the tested
   * attributes are the very objects already decoded (decoding them again would make new ones).
   */
  @Test
  void aPeekedEntryIsCompletedFromItsRecordWithoutDecodingItAgain(@TempDir Path dir)
      throws Exception {
    Entry written = jdupont();
    store(dir, written);
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      long id = c.idOf(written.getParsedDN());
      Entry partial =
          c.peek(
              id,
              new AttributeProjection(
                  evaluator.prepare(Filter.create("(cn=jean*)")).attributesTested()));
      assertThat(partial.getAttributes())
          .extracting(Attribute::getName)
          .containsExactly("cn", "cn;lang-fr");

      Entry whole = c.complete(partial);

      assertThat(whole.getAttributes())
          .extracting(Attribute::getName)
          .containsExactly("objectClass", "uid", "cn", "cn;lang-fr", "sn", "description");
      assertThat(whole).isEqualTo(written);
      assertThat(whole.getAttribute("cn")).isSameAs(partial.getAttribute("cn"));
      assertThat(whole.getAttribute("cn;lang-fr")).isSameAs(partial.getAttribute("cn;lang-fr"));
      Entry cached = c.get(id);
      assertThat(c.complete(cached)).isSameAs(cached);
    }
  }

  /**
   * A group read whole and one read for matching (its members stored apart, tested by point reads)
   * evaluate as the group written does.
   */
  @Test
  void aGroupEvaluatesAsWrittenWhetherItsMembersAreReadOrNot(@TempDir Path dir) throws Exception {
    Entry written =
        new Entry(
            "cn=staff,dc=example,dc=com",
            new Attribute("objectClass", "top", "groupOfNames"),
            new Attribute("cn", "staff"),
            new Attribute(
                "member",
                "uid=jdoe,ou=People,dc=example,dc=com",
                "uid=jdupont,ou=People,dc=example,dc=com"),
            new Attribute("member;x-origin", "uid=remote,dc=example,dc=com"));
    store(dir, written);
    List<String> filters =
        List.of(
            "(member=uid=jdoe,ou=People,dc=example,dc=com)",
            "(member=UID=JDOE, OU=People,DC=example,DC=com)",
            "(member=uid=nobody,dc=example,dc=com)",
            "(member;x-origin=uid=remote,dc=example,dc=com)",
            "(member;x-origin=uid=jdoe,ou=People,dc=example,dc=com)",
            "(member=uid=remote,dc=example,dc=com)",
            "(distinguishedName=uid=jdupont,ou=People,dc=example,dc=com)",
            "(member=*)",
            "(member;x-origin=*)",
            "(uniqueMember=*)",
            "(!(member=uid=jdoe,ou=People,dc=example,dc=com))",
            "(member:distinguishedNameMatch:=uid=jdupont,ou=People,dc=example,dc=com)",
            "(:distinguishedNameMatch:=uid=remote,dc=example,dc=com)",
            "(member=not a dn)");
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      Entry whole = c.get(written.getParsedDN());
      Entry tested = c.getForMatching(written.getParsedDN());
      assertThat(whole).isEqualTo(written);
      assertThat(tested)
          .isInstanceOfSatisfying(StoredEntry.class, e -> assertThat(e.lacksValues()).isTrue());
      for (String text : filters) {
        Filter filter = Filter.create(text);
        FilterEvaluator.Result expected = evaluator.evaluate(filter, written);
        assertThat(evaluator.evaluate(filter, whole)).as(text + " read whole").isEqualTo(expected);
        assertThat(evaluator.evaluate(filter, tested)).as(text + " tested").isEqualTo(expected);
      }
    }
  }

  private static Entry jdupont() {
    return new Entry(
        "uid=jdupont,ou=People,dc=example,dc=com",
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("uid", "jdupont"),
        new Attribute("cn", "John Doe"),
        new Attribute("cn;lang-fr", "Jean Dupont"),
        new Attribute("sn", "Doe"),
        new Attribute("description", "not tested"));
  }

  /** Writes the entry below the fixture tree and closes the backend: later reads decode it. */
  private static void store(Path dir, Entry entry) throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      StorageFixtures.addTree(c);
      c.add(entry);
    }
  }
}
