package io.rockds.tools.ldif;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.InitialConfig;
import io.rockds.layout.Instance;
import io.rockds.server.Backends;
import io.rockds.server.InstanceSetup;
import io.rockds.storage.Backend;
import io.rockds.storage.BackendSettings;
import io.rockds.storage.EntryContainer;
import io.rockds.tools.InstanceStorage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImportExportLdifTest {
  private static final DN BASE = dn("dc=example,dc=com");
  private static final String LDIF =
      """
      dn: dc=example,dc=com
      objectClass: top
      objectClass: domain
      dc: example

      dn: ou=People,dc=example,dc=com
      objectClass: top
      objectClass: organizationalUnit
      ou: People

      dn: uid=alice,ou=People,dc=example,dc=com
      objectClass: top
      objectClass: person
      objectClass: inetOrgPerson
      uid: alice
      cn: Alice
      sn: Liddell
      userPassword: secret

      dn: uid=broken,ou=People,dc=example,dc=com
      objectClass: top
      uid broken

      dn: uid=bob,ou=People,dc=example,dc=com
      objectClass: top
      objectClass: person
      objectClass: inetOrgPerson
      uid: bob
      cn: Bob
      sn: Builder
      entryUUID: 5c6e7a2a-4b8e-4d36-9c44-0a1a2b3c4d5e

      """;

  @TempDir Path dir;
  Instance instance;
  BackendSettings settings;

  static DN dn(String s) {
    try {
      return new DN(s);
    } catch (com.unboundid.ldap.sdk.LDAPException e) {
      throw new AssertionError(e);
    }
  }

  @BeforeEach
  void createInstance() throws Exception {
    instance = new Instance(dir.resolve("instance"));
    InstanceSetup.create(instance, InstanceSetup.loopback(BASE, 1389, -1), "password", List.of());
    settings = Backends.settings(InstanceStorage.of(instance).backend("userRoot"), instance);
  }

  /** import-ldif of {@code ldif} into this test's instance, then {@code options}. */
  private int importLdif(Path ldif, String... options) {
    return ImportLdif.run(instanceAndFile(ldif, options));
  }

  /** export-ldif of this test's instance to {@code ldif}, then {@code options}. */
  private int exportLdif(Path ldif, String... options) {
    return ExportLdif.run(instanceAndFile(ldif, options));
  }

  private String[] instanceAndFile(Path ldif, String... options) {
    return Stream.concat(
            Stream.of("--instance", instance.root().toString(), "-l", ldif.toString()),
            Stream.of(options))
        .toArray(String[]::new);
  }

  /** The userRoot backend of this test's instance, opened read-only. */
  private Backend openReadOnly() throws Exception {
    return Backend.openReadOnly(settings, Schema.getDefaultStandardSchema());
  }

  private Entry read(Backend backend, String dn) throws Exception {
    EntryContainer c = backend.containerFor(BASE);
    return c.get(dn(dn));
  }

  @Test
  void importHashesPasswordsStampsOperationalAttributesAndRejectsBadRecords() throws Exception {
    Path ldif = Files.writeString(dir.resolve("in.ldif"), LDIF);
    Path rejects = dir.resolve("rejects.ldif");
    assertThat(importLdif(ldif, "-R", rejects.toString(), "-Q")).isZero();
    assertThat(Files.readString(rejects))
        .startsWith(
            "# line 20: The record starting at or near line 20 contains a line that does not begin")
        .contains("uid broken");
    try (Backend backend = openReadOnly()) {
      Entry alice = read(backend, "uid=alice,ou=People,dc=example,dc=com");
      assertThat(alice.getAttributeValue("userPassword")).startsWith("{").doesNotContain("secret");
      assertThat(alice.getAttributeValue("entryUUID")).isNotBlank();
      assertThat(alice.getAttributeValue("creatorsName"))
          .isEqualToIgnoringCase("cn=Directory Manager");
      assertThat(
              read(backend, "uid=bob,ou=People,dc=example,dc=com").getAttributeValue("entryUUID"))
          .isEqualTo("5c6e7a2a-4b8e-4d36-9c44-0a1a2b3c4d5e");
      assertThat(read(backend, "uid=broken,ou=People,dc=example,dc=com")).isNull();
    }
  }

  private static final String SCHEMA_VIOLATIONS =
      """
      dn: dc=example,dc=com
      objectClass: domain
      dc: example

      dn: uid=noclass,dc=example,dc=com
      uid: noclass

      dn: uid=nosn,dc=example,dc=com
      objectClass: inetOrgPerson
      uid: nosn
      cn: No Surname

      dn: uid=undefined,dc=example,dc=com
      objectClass: inetOrgPerson
      uid: undefined
      cn: Undefined
      sn: Type
      fooBar: x

      dn: uid=badsyntax,dc=example,dc=com
      objectClass: inetOrgPerson
      uid: badsyntax
      cn: Bad
      sn: Syntax
      x121Address: not digits

      dn: uid=good,dc=example,dc=com
      objectClass: inetOrgPerson
      uid: good
      cn: Good
      sn: Entry
      userPassword: secret

      """;

  @Test
  void importReadsANamedPipeThatAGeneratorStreamsInto() throws Exception {
    Path pipe = dir.resolve("stream.ldif");
    Process mkfifo = new ProcessBuilder("mkfifo", pipe.toString()).start();
    Assumptions.assumeTrue(mkfifo.waitFor() == 0, "mkfifo is not available");
    // Enough records that the reads of the pipe come back short, as a generator's writes do.
    StringBuilder ldif = new StringBuilder(LDIF.replaceAll("(?s)dn: uid=broken.*?\n\n", ""));
    int users = 20_000;
    for (int i = 0; i < users; i++) {
      ldif.append("dn: uid=user.")
          .append(i)
          .append(",ou=People,dc=example,dc=com\nobjectClass: top\nobjectClass: person\n")
          .append("objectClass: inetOrgPerson\nuid: user.")
          .append(i)
          .append("\ncn: User\nsn: Streamed\n\n");
    }
    Thread writer =
        new Thread(
            () -> {
              try {
                Files.writeString(pipe, ldif);
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    writer.start();
    assertThat(importLdif(pipe, "-Q")).isZero();
    writer.join();
    try (Backend backend = openReadOnly()) {
      assertThat(read(backend, "uid=user." + (users - 1) + ",ou=People,dc=example,dc=com"))
          .isNotNull();
      assertThat(read(backend, "uid=bob,ou=People,dc=example,dc=com")).isNotNull();
    }
  }

  @Test
  void importChecksTheSchemaAsAnAddDoesUnlessSkipped() throws Exception {
    Path ldif = Files.writeString(dir.resolve("schema.ldif"), SCHEMA_VIOLATIONS);
    Path rejects = dir.resolve("rejects.ldif");
    String summary =
        stdoutOf(() -> assertThat(importLdif(ldif, "-R", rejects.toString())).isZero());
    assertThat(summary).contains("2 imported", "4 rejected");
    assertThat(Files.readString(rejects))
        .contains("uid=noclass", "no objectClass attribute")
        .contains("uid=nosn", "requires attribute 'sn'")
        .contains("uid=undefined", "fooBar: attribute type undefined")
        .contains("uid=badsyntax", "x121Address")
        .doesNotContain("uid=good");
    try (Backend backend = openReadOnly()) {
      Entry good = read(backend, "uid=good,dc=example,dc=com");
      // As an add stores it: the superior classes of inetOrgPerson are listed.
      assertThat(good.getObjectClassValues()).contains("person", "organizationalPerson");
      assertThat(read(backend, "uid=nosn,dc=example,dc=com")).isNull();
    }

    assertThat(importLdif(ldif, "--skipSchemaValidation", "-R", rejects.toString(), "-Q")).isZero();
    try (Backend backend = openReadOnly()) {
      assertThat(read(backend, "uid=nosn,dc=example,dc=com")).isNotNull();
      assertThat(read(backend, "uid=badsyntax,dc=example,dc=com")).isNotNull();
    }
  }

  @Test
  void importHashesWithTheSchemeOfThePasswordPolicy() throws Exception {
    Instance pbkdf2 = new Instance(dir.resolve("pbkdf2"));
    InitialConfig.Parameters parameters = InstanceSetup.loopback(BASE, 1389, -1);
    InstanceSetup.create(
        pbkdf2,
        new InitialConfig.Parameters(
            parameters.baseDn(),
            parameters.listenAddress(),
            parameters.ldapPort(),
            parameters.ldapsPort(),
            parameters.rootUserDn(),
            parameters.rootPasswordHash(),
            parameters.allowAnonymousRead(),
            parameters.httpPort(),
            "PBKDF2-SHA256"),
        "password",
        List.of());
    Path ldif = Files.writeString(dir.resolve("in.ldif"), LDIF);
    assertThat(ImportLdif.run("--instance", pbkdf2.root().toString(), "-l", ldif.toString(), "-Q"))
        .isZero();
    BackendSettings pbkdf2Settings =
        Backends.settings(InstanceStorage.of(pbkdf2).backend("userRoot"), pbkdf2);
    try (Backend backend =
        Backend.openReadOnly(pbkdf2Settings, Schema.getDefaultStandardSchema())) {
      assertThat(
              read(backend, "uid=alice,ou=People,dc=example,dc=com")
                  .getAttributeValue("userPassword"))
          .startsWith("{PBKDF2-SHA256}");
    }
  }

  private static String stdoutOf(Action action) throws Exception {
    return printedTo(System.out, System::setOut, action);
  }

  @Test
  void importNeedsExclusiveAccessWhileExportWorksBesideARunningWriter() throws Exception {
    Path ldif = Files.writeString(dir.resolve("in.ldif"), LDIF);
    assertThat(importLdif(ldif, "-Q")).isZero();
    Path exported = dir.resolve("out.ldif");
    try (Backend server = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      String err = stderrOf(() -> assertThat(importLdif(ldif, "-Q")).isEqualTo(1));
      assertThat(err)
          .startsWith("import-ldif: ")
          .contains("in use by another process", "exclusive access");
      assertThat(exportLdif(exported, "-Q")).isZero();
    }
    assertThat(Files.readString(exported))
        .contains("dn: uid=alice,ou=People,dc=example,dc=com", "entryUUID: ");
  }

  @Test
  void exportImportExportIsStableAndGzipAndFiltersWork() throws Exception {
    Path ldif = Files.writeString(dir.resolve("in.ldif"), LDIF);
    assertThat(importLdif(ldif, "-Q")).isZero();
    Path first = dir.resolve("first.ldif.gz");
    Path second = dir.resolve("second.ldif.gz");
    assertThat(exportLdif(first, "-c", "-Q")).isZero();
    assertThat(importLdif(first, "-F", "-Q")).isZero();
    assertThat(exportLdif(second, "-c", "-Q")).isZero();
    assertThat(gunzip(second)).isEqualTo(gunzip(first)).contains("userPassword: {");

    Path filtered = dir.resolve("filtered.ldif");
    assertThat(
            exportLdif(
                filtered,
                "-Q",
                "-b",
                "ou=People,dc=example,dc=com",
                "-B",
                "uid=bob,ou=People,dc=example,dc=com",
                "-e",
                "userPassword"))
        .isZero();
    assertThat(Files.readString(filtered))
        .contains("dn: uid=alice,")
        .doesNotContain("uid=bob", "userPassword", "dn: dc=example,dc=com");
  }

  private static String gunzip(Path file) throws Exception {
    try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(file))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private interface Action {
    void run() throws Exception;
  }

  private static String stderrOf(Action action) throws Exception {
    return printedTo(System.err, System::setErr, action);
  }

  /**
   * What {@code action} prints to a standard stream ({@code original}, swapped with {@code
   * redirect}), which is restored after.
   */
  private static String printedTo(
      PrintStream original, Consumer<PrintStream> redirect, Action action) throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    redirect.accept(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      redirect.accept(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
