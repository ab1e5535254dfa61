package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.dn;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read of an entry by DN decoding only the attributes a reader names ({@link
 * EntryContainer#peekWithoutValuesApart(DN, AttributeProjection, ReadFrom)}), as authentication
 * reads a user: the same values as the whole entry for those attributes, nothing of the others, no
 * values stored apart, and one projection serving every container although each numbers attribute
 * descriptions its own way.
 */
class ProjectedReadTest {
  private static final DN EXAMPLE = dn("dc=example,dc=com");
  private static final DN OTHER = dn("o=other");
  private static final AttributeProjection PASSWORD_AND_STATE =
      new AttributeProjection(
          d -> d.equalsIgnoreCase("userPassword") || d.equalsIgnoreCase("pwdFailureTime"));

  @TempDir Path dir;

  private Backend open(boolean cacheSmallEntries) throws Exception {
    BackendSettings defaults =
        BackendSettings.defaults(
            "userRoot", dir.resolve("db-" + cacheSmallEntries), EXAMPLE, OTHER);
    return Backend.open(
        new BackendSettings(
            defaults.id(),
            defaults.baseDns(),
            defaults.directory(),
            defaults.indexEntryLimit(),
            StorageFixtures.INDEXES,
            false,
            defaults.entryCacheBytes(),
            cacheSmallEntries,
            defaults.blockCacheBytes(),
            defaults.compression(),
            defaults.memtableBytes()),
        Schema.getDefaultStandardSchema());
  }

  private static Entry user(String dn, Attribute... first) {
    Entry entry = new Entry(dn);
    for (Attribute a : first) {
      entry.addAttribute(a);
    }
    entry.addAttribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson");
    entry.addAttribute("cn", "A User");
    entry.addAttribute("sn", "User");
    entry.addAttribute("userPassword", "{SSHA}secret-hash");
    entry.addAttribute("pwdFailureTime", "20261128010101.000Z");
    entry.addAttribute("jpegPhoto", new byte[2048]);
    return entry;
  }

  @Test
  void oneProjectionReadsTheNamedAttributesInContainersNumberingThemDifferently() throws Exception {
    try (Backend backend = open(false)) {
      EntryContainer example = backend.containerFor(EXAMPLE);
      EntryContainer other = backend.containerFor(OTHER);
      example.add(new Entry("dc=example,dc=com", new Attribute("objectClass", "top", "domain")));
      // o=other meets description and telephoneNumber first: its dictionary gives them the ids
      // dc=example,dc=com gives userPassword and pwdFailureTime.
      other.add(
          new Entry(
              "o=other",
              new Attribute("objectClass", "top", "organization"),
              new Attribute("o", "other")));
      DN inExample = dn("uid=a,dc=example,dc=com");
      DN inOther = dn("uid=b,o=other");
      example.add(user(inExample.toString()));
      other.add(
          user(
              inOther.toString(),
              new Attribute("description", "not read"),
              new Attribute("telephoneNumber", "+1 555 0100")));

      for (DN dn : List.of(inExample, inOther, inExample)) {
        Entry read =
            (dn == inOther ? other : example)
                .peekWithoutValuesApart(dn, PASSWORD_AND_STATE, ReadFrom.ANYWHERE);
        assertThat(read.getDN()).isEqualTo(dn.toString());
        assertThat(read.getAttributes())
            .extracting(Attribute::getName)
            .containsExactlyInAnyOrder("userPassword", "pwdFailureTime");
        assertThat(read.getAttributeValue("userPassword")).isEqualTo("{SSHA}secret-hash");
      }
      assertThat(
              example.peekWithoutValuesApart(
                  dn("uid=absent,dc=example,dc=com"), PASSWORD_AND_STATE, ReadFrom.ANYWHERE))
          .isNull();
    }
  }

  @Test
  void aReadAfterAWriteSeesTheWrittenValuesCachedOrNot() throws Exception {
    for (boolean cacheSmallEntries : List.of(false, true)) {
      try (Backend backend = open(cacheSmallEntries)) {
        EntryContainer c = backend.containerFor(EXAMPLE);
        c.add(new Entry("dc=example,dc=com", new Attribute("objectClass", "top", "domain")));
        DN dn = dn("uid=a,dc=example,dc=com");
        c.add(user(dn.toString()));
        c.get(dn); // cached, when small entries are
        assertThat(
                c.peekWithoutValuesApart(dn, PASSWORD_AND_STATE, ReadFrom.ANYWHERE)
                    .getAttributeValue("userPassword"))
            .isEqualTo("{SSHA}secret-hash");

        c.modify(
            dn,
            current -> {
              Entry changed = current.duplicate();
              changed.setAttribute("userPassword", "{SSHA}new-hash");
              changed.removeAttribute("pwdFailureTime");
              return changed;
            });

        Entry read = c.peekWithoutValuesApart(dn, PASSWORD_AND_STATE, ReadFrom.ANYWHERE);
        assertThat(read.getAttributeValue("userPassword"))
            .as("cacheSmallEntries " + cacheSmallEntries)
            .isEqualTo("{SSHA}new-hash");
        assertThat(read.hasAttribute("pwdFailureTime")).isFalse();
      }
    }
  }
}
