package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EntryContainerTest {
  static final DN BASE = dn("dc=example,dc=com");

  @TempDir Path dir;

  static DN dn(String s) {
    try {
      return new DN(s);
    } catch (LDAPException e) {
      throw new AssertionError(e);
    }
  }

  Backend open(int limit) throws Exception {
    return Backend.open(
        BackendSettings.defaults("userRoot", dir.resolve("db"), BASE)
            .withIndexEntryLimit(limit)
            .withIndexes(
                List.of(
                    IndexSpec.of("objectClass", IndexType.EQUALITY),
                    IndexSpec.of("uid", IndexType.EQUALITY),
                    IndexSpec.of("sn", IndexType.EQUALITY, IndexType.SUBSTRING))),
        Schema.getDefaultStandardSchema());
  }

  static Entry person(int i, String sn) {
    return new Entry(
        "uid=user." + i + ",ou=People,dc=example,dc=com",
        new com.unboundid.ldap.sdk.Attribute(
            "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new com.unboundid.ldap.sdk.Attribute("uid", "user." + i),
        new com.unboundid.ldap.sdk.Attribute("cn", "User " + i),
        new com.unboundid.ldap.sdk.Attribute("sn", sn),
        new com.unboundid.ldap.sdk.Attribute(
            "jpegPhoto", new byte[] {0, 1, 2, (byte) 0xFF, (byte) i}));
  }

  static void addTree(EntryContainer c) throws LDAPException {
    c.add(
        new Entry(
            "dc=example,dc=com",
            new com.unboundid.ldap.sdk.Attribute("objectClass", "top", "domain"),
            new com.unboundid.ldap.sdk.Attribute("dc", "example")));
    c.add(
        new Entry(
            "ou=People,dc=example,dc=com",
            new com.unboundid.ldap.sdk.Attribute("objectClass", "top", "organizationalUnit"),
            new com.unboundid.ldap.sdk.Attribute("ou", "People")));
  }

  @Test
  void dnOfNamesAnEntryFromTheHeadOfItsRecord() throws Exception {
    String longRdn = "cn=" + "x".repeat(1_000) + ",dc=example,dc=com";
    try (Backend backend = open(4000)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      Entry group = new Entry("cn=big,dc=example,dc=com");
      group.addAttribute("objectClass", "groupOfNames");
      group.addAttribute("cn", "big");
      for (int i = 0; i < 5_000; i++) {
        group.addAttribute("member", "uid=user." + i + ",ou=People,dc=example,dc=com");
      }
      c.add(group);
      c.add(
          new Entry(
              longRdn,
              new com.unboundid.ldap.sdk.Attribute("objectClass", "device"),
              new com.unboundid.ldap.sdk.Attribute("cn", "x".repeat(1_000))));
      assertThat(c.dnOf(c.idOf(dn("cn=big,dc=example,dc=com"))))
          .isEqualTo(dn("cn=big,dc=example,dc=com"));
      assertThat(c.dnOf(c.idOf(dn(longRdn)))).isEqualTo(dn(longRdn));
      assertThat(c.dnOf(987_654L)).isNull();
    }
  }

  @Test
  void entriesRoundTripExactlyAndSurviveReopen() throws Exception {
    Entry written = person(1, "Müller");
    try (Backend backend = open(4000)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      c.add(written);
    }
    try (Backend backend = open(4000)) {
      EntryContainer c = backend.containerFor(BASE);
      Entry read = c.get(dn("uid=user.1,ou=people,dc=example,dc=com"));
      assertThat(read).isEqualTo(written);
      assertThat(read.getAttributeValueBytes("jpegPhoto")).containsExactly(0, 1, 2, 0xFF, 1);
      assertThat(read.getAttributeValue("sn")).isEqualTo("Müller");
      assertThat(c.entryCount()).isEqualTo(3);
      assertThat(c.childCount(c.idOf(dn("ou=People,dc=example,dc=com")))).isEqualTo(1);
    }
  }

  @Test
  void addRefusesDuplicatesAndOrphans() throws Exception {
    try (Backend backend = open(4000)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      c.add(person(1, "Smith"));
      assertThatThrownBy(() -> c.add(person(1, "Smith")))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.ENTRY_ALREADY_EXISTS);
      Entry orphan =
          new Entry(
              "uid=x,ou=Missing,dc=example,dc=com",
              new com.unboundid.ldap.sdk.Attribute("objectClass", "top"));
      assertThatThrownBy(() -> c.add(orphan))
          .satisfies(
              e -> {
                assertThat(((LDAPException) e).getResultCode())
                    .isEqualTo(ResultCode.NO_SUCH_OBJECT);
                assertThat(((LDAPException) e).getMatchedDN())
                    .isEqualToIgnoringCase("dc=example,dc=com");
              });
      assertThatThrownBy(() -> c.delete(dn("ou=People,dc=example,dc=com")))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.NOT_ALLOWED_ON_NONLEAF);
    }
  }

  @Test
  void keyCrossesTheEntryLimitAndItsCountIsKept() throws Exception {
    try (Backend backend = open(5)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      for (int i = 0; i < 5; i++) {
        c.add(person(i, "Lee"));
      }
      AttributeIndex sn = c.index("sn", IndexType.EQUALITY);
      assertThat(sn.name()).isEqualTo("sn.caseIgnoreMatch");
      assertThat(sn.read("lee".getBytes(StandardCharsets.UTF_8)).size()).isEqualTo(5);
      c.add(person(5, "Lee"));
      c.add(person(6, "Lee"));
      assertThat(sn.read("lee".getBytes(StandardCharsets.UTF_8)).isDefined()).isFalse();
      assertThat(
              c.state()
                  .overLimitCount("sn.caseIgnoreMatch", "lee".getBytes(StandardCharsets.UTF_8)))
          .isEqualTo(7);
      c.delete(dn("uid=user.6,ou=People,dc=example,dc=com"));
      assertThat(
              c.state()
                  .overLimitCount("sn.caseIgnoreMatch", "lee".getBytes(StandardCharsets.UTF_8)))
          .isEqualTo(6);
    }
  }

  @Test
  void scopesAndSubtreeRename() throws Exception {
    try (Backend backend = open(4000)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      for (int i = 0; i < 50; i++) {
        c.add(person(i, "Smith"));
      }
      DN people = dn("ou=People,dc=example,dc=com");
      assertThat(c.scopeIds(people, SearchScope.ONE, 0).size()).isEqualTo(50);
      assertThat(c.scopeIds(BASE, SearchScope.ONE, 0).size()).isEqualTo(1);
      assertThat(c.scopeIds(BASE, SearchScope.SUB, 0).size()).isEqualTo(52);
      assertThat(c.scopeIds(BASE, SearchScope.SUB, 10).isDefined()).isFalse();
      DN staff = dn("ou=Staff,dc=example,dc=com");
      c.rename(
          people,
          staff,
          e -> {
            e.setDN(staff);
            e.setAttribute("ou", "Staff");
            return e;
          });
      assertThat(c.get(dn("uid=user.7,ou=Staff,dc=example,dc=com")).getAttributeValue("uid"))
          .isEqualTo("user.7");
      assertThat(c.get(dn("uid=user.7,ou=People,dc=example,dc=com"))).isNull();
      assertThat(c.scopeIds(staff, SearchScope.ONE, 0).size()).isEqualTo(50);
      assertThat(
              c.index("objectClass", IndexType.EQUALITY)
                  .read("organizationalunit".getBytes(StandardCharsets.UTF_8))
                  .size())
          .isEqualTo(1);
    }
  }

  @Test
  void substringKeysAreSuffixesCutToLength() throws Exception {
    try (Backend backend =
        Backend.open(
            BackendSettings.defaults("userRoot", dir.resolve("db"), BASE)
                .withIndexes(
                    List.of(new IndexSpec("cn", java.util.Set.of(IndexType.SUBSTRING), null, 3))),
            Schema.getDefaultStandardSchema())) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      c.add(
          new Entry(
              "cn=ABCDE,dc=example,dc=com",
              new com.unboundid.ldap.sdk.Attribute("objectClass", "top"),
              new com.unboundid.ldap.sdk.Attribute("cn", "ABCDE")));
      AttributeIndex cn = c.index("cn", IndexType.SUBSTRING);
      assertThat(cn.name()).isEqualTo("cn.caseIgnoreSubstringsMatch:3");
      List<String> keys =
          cn.keysOf(c.get(dn("cn=abcde,dc=example,dc=com"))).stream()
              .map(IndexKey::toString)
              .sorted()
              .toList();
      assertThat(keys).containsExactly("abc", "bcd", "cde", "de", "e");
    }
  }
}
