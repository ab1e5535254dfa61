package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Searches that read only part of each candidate (its DN when the uid index proved the match and no
 * attribute is asked, the requested and tested attributes for a root search naming them) return
 * exactly what reading whole entries returns: same entries, same scope, same attributes.
 */
class PartialReadSearchIT {
  private static final String PEOPLE_DN = "ou=People," + TestServer.BASE;
  private static final String OTHERS_DN = "ou=Others," + TestServer.BASE;
  private static final String READER_DN = "uid=reader," + TestServer.BASE;

  @TempDir static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(TestServer.organizationalUnit(OTHERS_DN));
    entries.add(
        new Entry(
            READER_DN,
            new Attribute("objectClass", "top", "person", "inetOrgPerson"),
            new Attribute("uid", "reader"),
            new Attribute("cn", "Reader"),
            new Attribute("sn", "Reader"),
            new Attribute("userPassword", "reader-secret")));
    for (int i = 0; i < 20; i++) {
      String parent = i % 2 == 0 ? PEOPLE_DN : OTHERS_DN;
      entries.add(
          new Entry(
              "uid=user." + i + "," + parent,
              new Attribute(
                  "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
              new Attribute("uid", "user." + i),
              new Attribute("cn", "User " + i),
              new Attribute("sn", "Sn" + i % 3),
              new Attribute("mail", "user." + i + "@a.com", "user." + i + "@b.com"),
              new Attribute("description", "number " + i),
              new Attribute("jpegPhoto", new byte[] {1, 2, 3, (byte) i})));
    }
    server = TestServer.start(dir, entries);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void aProvenMatchReturnsItsDnInScopeOnly() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      assertThat(root.search(PEOPLE_DN, SearchScope.SUB, "(uid=user.4)", "1.1").getSearchEntries())
          .extracting(SearchResultEntry::getDN)
          .containsExactly("uid=user.4," + PEOPLE_DN);
      assertThat(
              root.search(TestServer.BASE, SearchScope.SUB, "(UID=USER.4)", "1.1")
                  .getSearchEntries())
          .singleElement()
          .satisfies(e -> assertThat(e.getAttributes()).isEmpty());
      assertThat(root.search(OTHERS_DN, SearchScope.SUB, "(uid=user.4)", "1.1").getEntryCount())
          .isZero();
      assertThat(
              root.search(
                      PEOPLE_DN, SearchScope.ONE, "(|(uid=user.1)(uid=user.2)(uid=user.4))", "1.1")
                  .getSearchEntries())
          .extracting(SearchResultEntry::getDN)
          .containsExactlyInAnyOrder("uid=user.2," + PEOPLE_DN, "uid=user.4," + PEOPLE_DN);
      assertThat(root.search(PEOPLE_DN, SearchScope.BASE, "(uid=user.4)", "1.1").getEntryCount())
          .isZero();
    }
  }

  @Test
  void namedAttributesComeFromAPartialRead() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      SearchResultEntry named =
          root.searchForEntry(TestServer.BASE, SearchScope.SUB, "(uid=user.3)", "CN", "mail");
      assertThat(named.getAttributes())
          .extracting(Attribute::getName)
          .containsExactlyInAnyOrder("cn", "mail");
      assertThat(named.getAttributeValues("mail"))
          .containsExactlyInAnyOrder("user.3@a.com", "user.3@b.com");
      // sn is tested on the read entry: the filter still decides.
      assertThat(
              root.search(TestServer.BASE, SearchScope.SUB, "(&(uid=user.3)(sn=Other))", "cn")
                  .getEntryCount())
          .isZero();
      // Unindexed: the scan's partial read serves both the test and the answer.
      SearchResultEntry scanned =
          root.searchForEntry(
              TestServer.BASE, SearchScope.SUB, "(description=number 7)", "sn", "jpegPhoto");
      assertThat(scanned.getDN()).isEqualTo("uid=user.7," + OTHERS_DN);
      assertThat(scanned.getAttributes())
          .extracting(Attribute::getName)
          .containsExactlyInAnyOrder("sn", "jpegPhoto");
      assertThat(scanned.getAttributeValueBytes("jpegPhoto")).containsExactly(1, 2, 3, 7);
      SearchResultEntry all = root.searchForEntry(TestServer.BASE, SearchScope.SUB, "(uid=user.7)");
      assertThat(all.getAttributeValueBytes("jpegPhoto")).containsExactly(1, 2, 3, 7);
      assertThat(all.getAttributes())
          .extracting(Attribute::getName)
          .containsExactlyInAnyOrder(
              "objectClass", "uid", "cn", "sn", "mail", "description", "jpegPhoto");
    }
  }

  @Test
  void aClientUnderAccessControlGetsTheSameEntriesAsBefore() throws Exception {
    try (LDAPConnection reader =
            new LDAPConnection("127.0.0.1", server.ldapPort(), READER_DN, "reader-secret");
        LDAPConnection root = server.rootConnection()) {
      List<String> asReader =
          reader
              .search(TestServer.BASE, SearchScope.SUB, "(uid=user.5)", "1.1")
              .getSearchEntries()
              .stream()
              .map(SearchResultEntry::getDN)
              .toList();
      List<String> asRoot =
          root
              .search(TestServer.BASE, SearchScope.SUB, "(uid=user.5)", "1.1")
              .getSearchEntries()
              .stream()
              .map(SearchResultEntry::getDN)
              .toList();
      assertThat(asRoot).containsExactly("uid=user.5," + OTHERS_DN);
      assertThat(asReader).isSubsetOf(asRoot);
    }
  }
}
