package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Photos and certificates, which the backend stores apart from their entries, come back byte for
 * byte over LDAP through every operation: add, search (all attributes, named ones, the DN alone),
 * modify of one value, compare, equality filters, rename, delete, and a restart.
 */
class BinaryValuesIT {
  private static final String PEOPLE = "ou=People," + TestServer.BASE;

  @TempDir static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(dir, TestServer.baseEntries());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static byte[] random(int bytes, int seed) {
    byte[] value = new byte[bytes];
    new Random(seed).nextBytes(value);
    return value;
  }

  private static Entry person(String uid, int seed) {
    return new Entry(
        "uid=" + uid + "," + PEOPLE,
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("uid", uid),
        new Attribute("cn", "Photo " + uid),
        new Attribute("sn", "Photo"),
        new Attribute("jpegPhoto", random(1500, seed)),
        new Attribute("userCertificate;binary", random(300, seed + 1), random(300, seed + 2)),
        new Attribute("photo", random(200, seed + 3)));
  }

  private static SearchResultEntry read(LDAPConnection c, String uid, String... attributes)
      throws LDAPException {
    return c.searchForEntry(TestServer.BASE, SearchScope.SUB, "(uid=" + uid + ")", attributes);
  }

  private static List<byte[]> values(SearchResultEntry entry, String description) {
    Attribute a = entry.getAttribute(description);
    return a == null ? List.of() : List.of(a.getValueByteArrays());
  }

  @Test
  void searchesReturnTheExactBytesAllNamedOrNone() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      root.add(person("searched", 10));
      assertSearchesReturnExactBytes(root);
    }
    // The same after a restart: cold caches, reads given to the workers.
    server.restart();
    try (LDAPConnection root = server.rootConnection()) {
      assertSearchesReturnExactBytes(root);
    }
  }

  private static void assertSearchesReturnExactBytes(LDAPConnection root) throws LDAPException {
    SearchResultEntry all = read(root, "searched");
    assertThat(all.getAttributeValueBytes("jpegPhoto")).isEqualTo(random(1500, 10));
    assertThat(values(all, "userCertificate;binary"))
        .containsExactlyInAnyOrder(random(300, 11), random(300, 12));
    assertThat(all.getAttributeValueBytes("photo")).isEqualTo(random(200, 13));
    assertThat(all.getAttributeValue("cn")).isEqualTo("Photo searched");

    SearchResultEntry named = read(root, "searched", "jpegPhoto", "sn");
    assertThat(named.getAttributes())
        .extracting(Attribute::getName)
        .containsExactlyInAnyOrder("jpegPhoto", "sn");
    assertThat(named.getAttributeValueBytes("jpegPhoto")).isEqualTo(random(1500, 10));

    SearchResultEntry cnOnly = read(root, "searched", "cn");
    assertThat(cnOnly.getAttributes()).extracting(Attribute::getName).containsExactly("cn");

    SearchResultEntry dnOnly = read(root, "searched", "1.1");
    assertThat(dnOnly.getDN()).isEqualTo("uid=searched," + PEOPLE);
    assertThat(dnOnly.getAttributes()).isEmpty();
  }

  @Test
  void modifyOfOneValueCompareAndFiltersSeeExactBytes() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      root.add(person("modified", 20));
      String dn = "uid=modified," + PEOPLE;
      root.modify(
          dn,
          new Modification(ModificationType.ADD, "userCertificate;binary", random(300, 99)),
          new Modification(ModificationType.DELETE, "userCertificate;binary", random(300, 21)),
          new Modification(ModificationType.REPLACE, "jpegPhoto", random(1500, 98)));
      SearchResultEntry after = read(root, "modified");
      assertThat(values(after, "userCertificate;binary"))
          .containsExactlyInAnyOrder(random(300, 22), random(300, 99));
      assertThat(after.getAttributeValueBytes("jpegPhoto")).isEqualTo(random(1500, 98));

      assertThatThrownBy(
              () ->
                  root.modify(
                      dn,
                      new Modification(
                          ModificationType.ADD, "userCertificate;binary", random(300, 99))))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS));
      assertThatThrownBy(
              () ->
                  root.modify(
                      dn, new Modification(ModificationType.DELETE, "photo", random(200, 1))))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.NO_SUCH_ATTRIBUTE));

      assertThat(root.compare(new CompareRequest(dn, "photo", random(200, 23))).compareMatched())
          .isTrue();
      assertThat(root.compare(new CompareRequest(dn, "photo", random(200, 24))).compareMatched())
          .isFalse();
      assertThat(
              root.search(
                      TestServer.BASE,
                      SearchScope.SUB,
                      Filter.createEqualityFilter("photo", random(200, 23)),
                      "1.1")
                  .getSearchEntries())
          .extracting(SearchResultEntry::getDN)
          .containsExactly(dn);
      assertThat(
              root.search(
                      TestServer.BASE,
                      SearchScope.SUB,
                      Filter.createANDFilter(
                          Filter.createEqualityFilter("uid", "modified"),
                          Filter.createNOTFilter(
                              Filter.createEqualityFilter("photo", random(200, 23)))),
                      "1.1")
                  .getEntryCount())
          .isZero();

      root.modify(dn, new Modification(ModificationType.DELETE, "jpegPhoto"));
      assertThat(read(root, "modified").hasAttribute("jpegPhoto")).isFalse();
    }
  }

  @Test
  void renameAndDeleteTakeTheValuesWithTheEntry() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      root.add(person("renamed", 30));
      root.modifyDN("uid=renamed," + PEOPLE, "uid=moved", true);
      SearchResultEntry moved = read(root, "moved");
      assertThat(moved.getDN()).isEqualTo("uid=moved," + PEOPLE);
      assertThat(moved.getAttributeValueBytes("jpegPhoto")).isEqualTo(random(1500, 30));
      assertThat(values(moved, "userCertificate;binary"))
          .containsExactlyInAnyOrder(random(300, 31), random(300, 32));

      root.delete("uid=moved," + PEOPLE);
      assertThat(read(root, "moved")).isNull();
      // A new entry under the same name holds only its own values.
      Entry again = person("moved", 40);
      root.add(again);
      List<byte[]> photos = new ArrayList<>(values(read(root, "moved"), "jpegPhoto"));
      assertThat(photos).containsExactly(random(1500, 40));
    }
  }
}
