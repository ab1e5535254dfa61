package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search returning whole entries gives back every stored attribute under its stored name with
 * every value byte for byte: binary values, options ({@code ;binary}, {@code ;lang-fr}), non-ASCII
 * text, values and entries larger than the server's output batches, on the event loop (a few
 * indexed candidates) and on a worker (a subtree of many entries) alike; types only, and the
 * operational attributes exactly when asked for.
 */
class SearchAllAttributesIT {
  private static final String PEOPLE_DN = "ou=People," + TestServer.BASE;
  private static final int USERS = 40;

  /** Its members are stored apart from its record: it is read whole, never sent as stored. */
  private static final Entry GROUP =
      new Entry(
          "cn=staff,ou=Groups," + TestServer.BASE,
          new Attribute("objectClass", "top", "groupOfNames"),
          new Attribute("cn", "staff"),
          new Attribute(
              "member",
              "uid=user.1," + PEOPLE_DN,
              "uid=user.2," + PEOPLE_DN,
              "uid=user.3," + PEOPLE_DN));

  @TempDir static Path dir;
  static TestServer server;
  static List<Entry> users = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    Random random = new Random(24);
    for (int i = 0; i < USERS; i++) {
      // One in ten has a photo far larger than an output batch (16 KiB) and a 0x83 BER length.
      byte[] photo = new byte[i % 10 == 3 ? 70_000 : 1500];
      random.nextBytes(photo);
      byte[] pkcs12 = new byte[300 + i];
      random.nextBytes(pkcs12);
      users.add(
          new Entry(
              "uid=user." + i + "," + PEOPLE_DN,
              new Attribute(
                  "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
              new Attribute("uid", "user." + i),
              new Attribute("cn", "Zoë Ångström " + i, "日本 " + i),
              new Attribute("cn;lang-fr", "Zoé " + i),
              new Attribute("sn", "Ångström"),
              new Attribute("mail", "user." + i + "@example.com", "other." + i + "@example.com"),
              new Attribute("description", "This is the description of user " + i + "."),
              new Attribute("jpegPhoto", photo),
              new Attribute("userPKCS12;binary", pkcs12)));
    }
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.addAll(users);
    entries.add(GROUP);
    server = TestServer.start(dir, entries);
    try (LDAPConnection root = server.rootConnection()) {
      // A stored operational attribute (modifiersName, modifyTimestamp) beside the user ones.
      root.modify(
          users.get(0).getDN(),
          new Modification(ModificationType.REPLACE, "description", "Modified."));
    }
    users.get(0).setAttribute("description", "Modified.");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void anIndexedSearchReturnsEveryAttributeAsStored() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      for (Entry user : users) {
        SearchResultEntry found =
            root.searchForEntry(
                TestServer.BASE, SearchScope.SUB, "(uid=" + user.getAttributeValue("uid") + ")");
        assertAsStored(found, user);
      }
    }
  }

  @Test
  void aGroupWhoseMembersAreStoredApartIsReturnedWhole() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      assertAsStored(root.searchForEntry(TestServer.BASE, SearchScope.SUB, "(cn=staff)"), GROUP);
    }
  }

  @Test
  void allUserAttributesAndANamedOperationalOne() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      SearchResultEntry found =
          root.searchForEntry(
              TestServer.BASE, SearchScope.SUB, "(uid=user.0)", "*", "modifyTimestamp");
      List<String> expected = new ArrayList<>(names(users.get(0)));
      expected.add("modifyTimestamp");
      assertThat(found.getAttributes())
          .extracting(Attribute::getName)
          .containsExactlyInAnyOrderElementsOf(expected);
      assertAsStoredAmong(found, users.get(0));
    }
  }

  @Test
  void aSubtreeOfManyBatchesReturnsEveryEntryAsStored() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      List<SearchResultEntry> found =
          root.search(PEOPLE_DN, SearchScope.ONE, "(objectClass=person)").getSearchEntries();
      assertThat(found).hasSize(USERS);
      for (Entry user : users) {
        assertAsStored(
            found.stream().filter(e -> e.getDN().equals(user.getDN())).findFirst().orElseThrow(),
            user);
      }
    }
  }

  @Test
  void typesOnlyReturnsTheStoredNamesWithoutValues() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      SearchRequest request =
          new SearchRequest(users.get(3).getDN(), SearchScope.BASE, "(objectClass=*)");
      request.setTypesOnly(true);
      SearchResultEntry found = root.searchForEntry(request);
      assertThat(found.getAttributes())
          .extracting(Attribute::getName)
          .containsExactlyInAnyOrderElementsOf(names(users.get(3)));
      assertThat(found.getAttributes()).allSatisfy(a -> assertThat(a.hasValue()).isFalse());
    }
  }

  @Test
  void operationalAttributesOnlyWhenAskedFor() throws Exception {
    String dn = users.get(0).getDN();
    try (LDAPConnection root = server.rootConnection()) {
      SearchResultEntry user = root.getEntry(dn);
      assertThat(user.hasAttribute("modifyTimestamp")).isFalse();
      assertThat(user.hasAttribute("entryDN")).isFalse();

      SearchResultEntry operational = root.getEntry(dn, "+");
      assertThat(operational.getAttributeValue("entryDN")).isEqualTo(dn);
      assertThat(operational.hasAttribute("modifiersName")).isTrue();
      assertThat(operational.hasAttribute("modifyTimestamp")).isTrue();
      assertThat(operational.hasAttribute("jpegPhoto")).isFalse();
      assertThat(operational.hasAttribute("cn")).isFalse();

      SearchResultEntry both = root.getEntry(dn, "*", "+");
      assertThat(both.hasAttribute("modifyTimestamp")).isTrue();
      assertAsStoredAmong(both, users.get(0));

      SearchResultEntry named = root.getEntry(dn, "modifyTimestamp", "cn");
      assertThat(named.getAttributes())
          .extracting(Attribute::getName)
          .containsExactlyInAnyOrder("modifyTimestamp", "cn", "cn;lang-fr");
    }
  }

  private static List<String> names(Entry entry) {
    return entry.getAttributes().stream().map(Attribute::getName).toList();
  }

  /** Exactly the stored attributes, names and values byte for byte, in the stored value order. */
  private static void assertAsStored(SearchResultEntry found, Entry stored) {
    assertThat(found.getDN()).isEqualTo(stored.getDN());
    assertThat(found.getAttributes())
        .extracting(Attribute::getName)
        .containsExactlyInAnyOrderElementsOf(names(stored));
    assertAsStoredAmong(found, stored);
  }

  private static void assertAsStoredAmong(SearchResultEntry found, Entry stored) {
    for (Attribute attribute : stored.getAttributes()) {
      Attribute returned =
          found.getAttributes().stream()
              .filter(a -> a.getName().equals(attribute.getName()))
              .findFirst()
              .orElseThrow();
      assertThat(returned.getValueByteArrays())
          .as("%s of %s", attribute.getName(), stored.getDN())
          .isEqualTo(attribute.getValueByteArrays());
    }
  }
}
