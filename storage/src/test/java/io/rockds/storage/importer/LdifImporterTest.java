package io.rockds.storage.importer;

import static io.rockds.storage.StorageFixtures.BASE;
import static io.rockds.storage.StorageFixtures.dn;
import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.EntryFilter;
import io.rockds.storage.IndexKey;
import io.rockds.storage.IndexType;
import io.rockds.storage.StorageFixtures;
import io.rockds.storage.exporter.LdifExporter;
import io.rockds.storage.maintenance.IndexStatistics;
import io.rockds.storage.maintenance.IndexVerifier;
import io.rockds.storage.maintenance.KeyCount;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LdifImporterTest {
  private static final String TREE =
      """
      version: 1

      dn: dc=example,dc=com
      objectClass: top
      objectClass: domain
      dc: example

      dn: ou=People,dc=example,dc=com
      objectClass: top
      objectClass: organizationalUnit
      ou: People

      """;

  @TempDir Path dir;

  static String person(int i, String sn) {
    return "dn: uid=user."
        + i
        + ",ou=People,dc=example,dc=com\n"
        + "objectClass: top\nobjectClass: person\nobjectClass: organizationalPerson\nobjectClass: inetOrgPerson\n"
        + "uid: user."
        + i
        + "\ncn: User "
        + i
        + "\nsn: "
        + sn
        + "\n"
        + "description:: "
        + java.util.Base64.getEncoder()
            .encodeToString(("Ünïcode " + i).getBytes(StandardCharsets.UTF_8))
        + "\n\n";
  }

  static String people(int count, int shared) {
    StringBuilder sb = new StringBuilder(TREE);
    for (int i = 0; i < count; i++) {
      sb.append(person(i, "Sn" + (i % shared)));
    }
    return sb.toString();
  }

  private ImportOptions options() {
    return ImportOptions.defaults(dir.resolve("work")).withThreads(2);
  }

  private static InputStream text(String ldif) {
    return new ByteArrayInputStream(ldif.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void badRecordsGoToTheRejectsFileWithLineAndReasonAndTheRestImports() throws Exception {
    String ldif =
        TREE
            + person(1, "Lee") // lines 13-22
            + "dn: uid=broken,ou=People,dc=example,dc=com\nobjectClass top\n\n" // line 23: no colon
            + person(1, "Again") // line 26: duplicate
            + "dn: uid=orphan,ou=Missing,dc=example,dc=com\nobjectClass: top\nuid: orphan\n\n" // line 36
            + "dn: cn=elsewhere,o=other\nobjectClass: top\ncn: elsewhere\n\n" // line 40
            + person(2, "Lee");
    Path rejects = dir.resolve("rejects.ldif");
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      ImportResult result =
          new LdifImporter(backend).run(text(ldif), options().withRejects(rejects));
      assertThat(result.read()).isEqualTo(8);
      assertThat(result.imported()).isEqualTo(4);
      assertThat(result.rejected()).isEqualTo(4);
      assertThat(result.skipped()).isZero();
      String rejected = Files.readString(rejects);
      assertThat(rejected)
          .contains(
              "# line 23: ",
              "# line 26: ",
              "already exists",
              "# line 36: ",
              "parent entry ou=Missing,dc=example,dc=com does not exist",
              "# line 40: ",
              "no base DN");
      assertThat(rejected).contains("objectClass top", "uid: orphan");
      EntryContainer c = backend.containerFor(BASE);
      assertThat(c.get(dn("uid=user.1,ou=People,dc=example,dc=com")).getAttributeValue("sn"))
          .isEqualTo("Lee");
      assertThat(
              c.get(dn("uid=user.1,ou=People,dc=example,dc=com")).getAttributeValue("description"))
          .isEqualTo("Ünïcode 1");
      assertThat(c.childCount(c.idOf(StorageFixtures.PEOPLE))).isEqualTo(2);
      assertThat(c.entryCount()).isEqualTo(4);
      assertThat(c.indexes()).allMatch(AttributeIndex::isTrusted);
      assertThat(new IndexVerifier(c).verifyAll().mismatches()).isEmpty();
      assertThat(
              c.index("sn", IndexType.EQUALITY).read("lee".getBytes(StandardCharsets.UTF_8)).size())
          .isEqualTo(2);
    }
  }

  @Test
  void importBuildsOverLimitKeysWithExactCountsAndReplacesPreviousContent() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 10)) {
      EntryContainer c = backend.containerFor(BASE);
      StorageFixtures.addTree(c);
      c.add(StorageFixtures.person(999, "Old"));
      ImportResult result = new LdifImporter(backend).run(text(people(300, 4)), options());
      assertThat(result.imported()).isEqualTo(302);
      assertThat(c.idOf(dn("uid=user.999,ou=People,dc=example,dc=com"))).isNegative();
      AttributeIndex sn = c.index("sn", IndexType.EQUALITY);
      assertThat(new IndexStatistics(c).of(List.of(sn)).get(0).overLimitKeys())
          .containsExactly(
              new KeyCount(IndexKey.of("sn0"), 75),
              new KeyCount(IndexKey.of("sn1"), 75),
              new KeyCount(IndexKey.of("sn2"), 75),
              new KeyCount(IndexKey.of("sn3"), 75));
      assertThat(new IndexVerifier(c).verifyAll().mismatches()).isEmpty();
      // The loaded backend takes ordinary writes afterwards.
      c.add(StorageFixtures.person(1000, "Sn0"));
      assertThat(c.state().overLimitCount(sn.name(), "sn0".getBytes(StandardCharsets.UTF_8)))
          .isEqualTo(76);
    }
    try (Backend reopened = StorageFixtures.open(dir.resolve("db"), 10)) {
      assertThat(reopened.containerFor(BASE).entryCount()).isEqualTo(303);
      assertThat(new IndexVerifier(reopened.containerFor(BASE)).verifyAll().mismatches()).isEmpty();
    }
  }

  @Test
  void filtersSkipBranchesAndAttributesAndGzipInputIsRead() throws Exception {
    String ldif =
        people(20, 3)
            + """
        dn: ou=Groups,dc=example,dc=com
        objectClass: top
        objectClass: organizationalUnit
        ou: Groups

        dn: cn=g,ou=Groups,dc=example,dc=com
        objectClass: top
        objectClass: groupOfNames
        cn: g
        member: uid=user.1,ou=People,dc=example,dc=com

        """;
    Path file = dir.resolve("in.ldif.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(ldif.getBytes(StandardCharsets.UTF_8));
    }
    Path skips = dir.resolve("skips.ldif");
    EntryFilter filter =
        new EntryFilter(
            List.of(BASE), List.of(dn("ou=Groups,dc=example,dc=com")), Set.of("description"));
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000);
        InputStream in = LdifImporter.open(file)) {
      ImportResult result =
          new LdifImporter(backend).run(in, options().withFilter(filter).withSkips(skips));
      assertThat(result.imported()).isEqualTo(22);
      assertThat(result.skipped()).isEqualTo(2);
      assertThat(Files.readString(skips))
          .contains(
              "below the excluded branch ou=Groups,dc=example,dc=com",
              "dn: cn=g,ou=Groups,dc=example,dc=com");
      EntryContainer c = backend.containerFor(BASE);
      assertThat(c.get(dn("uid=user.3,ou=People,dc=example,dc=com")).hasAttribute("description"))
          .isFalse();
      assertThat(c.get(dn("ou=Groups,dc=example,dc=com"))).isNull();
    }
  }

  @Test
  void exportImportExportGivesTheSameEntries() throws Exception {
    String ldif =
        people(500, 7)
            + """
        dn: cn=Binary,dc=example,dc=com
        objectClass: top
        objectClass: device
        cn: Binary
        description:: AAEC/w==
        description: second value with trailing text

        """;
    Path first = dir.resolve("first.ldif");
    try (Backend backend = StorageFixtures.open(dir.resolve("a"), 50)) {
      new LdifImporter(backend).run(text(ldif), options());
      try (OutputStream out = Files.newOutputStream(first)) {
        assertThat(new LdifExporter(backend).export(out, EntryFilter.ALL, 0, n -> {}))
            .isEqualTo(503);
      }
    }
    ByteArrayOutputStream second = new ByteArrayOutputStream();
    try (Backend backend = StorageFixtures.open(dir.resolve("b"), 50);
        InputStream in = LdifImporter.open(first)) {
      assertThat(new LdifImporter(backend).run(in, options()).imported()).isEqualTo(503);
      new LdifExporter(backend).export(second, EntryFilter.ALL, 0, n -> {});
    }
    assertThat(second.toString(StandardCharsets.UTF_8)).isEqualTo(Files.readString(first));
    assertThat(Files.readString(first)).contains("description:: AAEC/w==");
  }

  @Test
  void exportAppliesTheSameFilters() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      new LdifImporter(backend).run(text(people(5, 2)), options());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      long written =
          new LdifExporter(backend)
              .export(
                  out,
                  new EntryFilter(
                      List.of(StorageFixtures.PEOPLE),
                      List.of(dn("uid=user.2,ou=People,dc=example,dc=com")),
                      Set.of("description", "objectClass")),
                  0,
                  n -> {});
      String text = out.toString(StandardCharsets.UTF_8);
      assertThat(written).isEqualTo(5);
      assertThat(text)
          .contains("dn: ou=People,dc=example,dc=com", "dn: uid=user.4,ou=People,dc=example,dc=com")
          .doesNotContain("uid=user.2,", "description", "objectClass", "dn: dc=example,dc=com");
    }
  }
}
