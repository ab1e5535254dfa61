package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.BASE;
import static io.rockds.storage.StorageFixtures.addTree;
import static io.rockds.storage.StorageFixtures.dn;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EntryContainer#recordToSend}: a record gives the DN and every attribute and value exactly
 * as {@link EntryContainer#get} decodes them, in the same order, photos and certificates stored
 * apart included; entries that must be read whole (a group's members stored apart, kept by the
 * entry cache, absent) give none.
 */
class EntryRecordTest {
  private static final String PHOTO_DN = "uid=photo,ou=People,dc=example,dc=com";

  @TempDir Path dir;

  private Backend open(boolean cacheSmallEntries) throws Exception {
    BackendSettings s = StorageFixtures.settings(dir.resolve("db"), 4000);
    return Backend.open(
        new BackendSettings(
            s.id(),
            s.baseDns(),
            s.directory(),
            s.indexEntryLimit(),
            s.indexes(),
            s.syncWrites(),
            s.entryCacheBytes(),
            cacheSmallEntries,
            s.blockCacheBytes(),
            s.compression(),
            s.memtableBytes()),
        Schema.getDefaultStandardSchema());
  }

  private static Entry person(String dn, int photoBytes) {
    byte[] photo = new byte[photoBytes];
    new Random(24).nextBytes(photo);
    return new Entry(
        dn,
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("uid", dn.substring(4, dn.indexOf(','))),
        new Attribute("cn", "Zoë Ångström", "日本"),
        new Attribute("cn;lang-fr", "Zoé"),
        new Attribute("sn", "Ångström"),
        new Attribute("mail", "a@example.com", "b@example.com"),
        new Attribute("jpegPhoto", photo),
        new Attribute("userCertificate;binary", Arrays.copyOf(photo, 300)));
  }

  @Test
  void aRecordGivesTheDecodedEntryAttributeByAttribute() throws Exception {
    try (Backend backend = open(false)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      c.add(person(PHOTO_DN, 1500));
      long id = c.idOf(dn(PHOTO_DN));
      EntryRecord record = c.recordToSend(id, ReadFrom.ANYWHERE);
      assertThat(record).isNotNull();
      assertThat(
              new String(
                  record.bytes(), record.dnOffset(), record.dnLength(), StandardCharsets.UTF_8))
          .isEqualTo(PHOTO_DN);
      List<Attribute> decoded = c.get(id).getAttributes().stream().toList();
      assertThat(visit(record, description -> true)).isEqualTo(exactly(decoded));
      // An attribute declined is skipped with its values; the next ones are visited as before.
      assertThat(visit(record, description -> !description.equals("jpegPhoto")))
          .isEqualTo(
              exactly(decoded.stream().filter(a -> !a.getName().equals("jpegPhoto")).toList()));
    }
  }

  @Test
  void entriesToBeReadWholeGiveNoRecord() throws Exception {
    try (Backend backend = open(false)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      c.add(
          new Entry(
              "cn=staff,dc=example,dc=com",
              new Attribute("objectClass", "top", "groupOfNames"),
              new Attribute("cn", "staff"),
              new Attribute("member", PHOTO_DN)));
      // Its decoded footprint is over the large entry cache's threshold: the cache keeps it. (A
      // large photo would not make it so: it is stored apart, the cache holds entries without it.)
      Entry large = person("uid=large,ou=People,dc=example,dc=com", 1500);
      large.addAttribute("description", "x".repeat(70_000));
      c.add(large);
      c.add(person(PHOTO_DN, 1500));
      assertThat(c.recordToSend(c.idOf(dn("cn=staff,dc=example,dc=com")), ReadFrom.ANYWHERE))
          .isNull();
      assertThat(
              c.recordToSend(
                  c.idOf(dn("uid=large,ou=People,dc=example,dc=com")), ReadFrom.ANYWHERE))
          .isNull();
      assertThat(c.recordToSend(c.idOf(dn(PHOTO_DN)) + 1000, ReadFrom.ANYWHERE)).isNull();
      assertThat(c.recordToSend(c.idOf(dn(PHOTO_DN)), ReadFrom.ANYWHERE)).isNotNull();
    }
    try (Backend backend = open(true)) {
      // Every entry read is cached: records would bypass the cache.
      EntryContainer c = backend.containerFor(BASE);
      assertThat(c.recordToSend(c.idOf(dn(PHOTO_DN)), ReadFrom.ANYWHERE)).isNull();
    }
  }

  /** Each attribute as its description and its values' bytes, comparable with equals. */
  private static List<List<Object>> exactly(List<Attribute> attributes) {
    List<List<Object>> out = new ArrayList<>();
    for (Attribute a : attributes) {
      List<Object> one = new ArrayList<>();
      one.add(a.getName());
      for (ASN1OctetString value : a.getRawValues()) {
        one.add(Arrays.toString(value.getValue()));
      }
      out.add(one);
    }
    return out;
  }

  private static List<List<Object>> visit(EntryRecord record, Predicate<String> wanted) {
    List<List<Object>> out = new ArrayList<>();
    record.visit(
        new EntryRecord.Visitor() {
          @Override
          public boolean attribute(String description) {
            if (!wanted.test(description)) {
              return false;
            }
            out.add(new ArrayList<>(List.of(description)));
            return true;
          }

          @Override
          public void value(byte[] bytes, int offset, int length) {
            out.get(out.size() - 1)
                .add(Arrays.toString(Arrays.copyOfRange(bytes, offset, offset + length)));
          }
        });
    return out;
  }
}
