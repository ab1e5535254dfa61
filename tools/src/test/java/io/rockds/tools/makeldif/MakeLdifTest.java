package io.rockds.tools.makeldif;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldif.LDIFReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: outputs, constants, resource path. */
class MakeLdifTest {
  @TempDir Path directory;

  private static List<Entry> read(InputStream in) throws Exception {
    List<Entry> entries = new ArrayList<>();
    try (LDIFReader reader = new LDIFReader(in)) {
      for (Entry entry = reader.readEntry(); entry != null; entry = reader.readEntry()) {
        entries.add(entry);
      }
    }
    return entries;
  }

  @Test
  void gzOutput_isGzippedLdif() throws Exception {
    Path ldif = directory.resolve("sample.ldif.gz");

    int exit =
        MakeLdif.run("-t", TemplateFile.EXAMPLE, "-c", "numusers=25", "-o", ldif.toString(), "-Q");

    assertThat(exit).isZero();
    try (InputStream in = new GZIPInputStream(Files.newInputStream(ldif))) {
      List<Entry> entries = read(in);
      assertThat(entries).hasSize(27);
      assertThat(entries.get(26).getDN()).isEqualTo("uid=user.24,ou=People,dc=example,dc=com");
    }
  }

  @Test
  void dashOutput_writesToStandardOutput() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    int exit;
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      exit =
          MakeLdif.run(
              "--templateFile",
              TemplateFile.EXAMPLE,
              "--constant",
              "numusers=3",
              "--constant",
              "suffix=o=test",
              "--randomSeed",
              "9",
              "--ldifFile",
              "-",
              "--quiet");
    } finally {
      System.setOut(originalOut);
    }

    assertThat(exit).isZero();
    List<Entry> entries = read(new java.io.ByteArrayInputStream(captured.toByteArray()));
    assertThat(entries)
        .extracting(Entry::getDN)
        .containsExactly(
            "o=test",
            "ou=People,o=test",
            "uid=user.0,ou=People,o=test",
            "uid=user.1,ou=People,o=test",
            "uid=user.2,ou=People,o=test");
  }

  @Test
  void resourcePath_isSearchedBeforeTheTemplateDirectory() throws Exception {
    Path resources = Files.createDirectory(directory.resolve("resources"));
    Path templates = Files.createDirectory(directory.resolve("templates"));
    Files.write(resources.resolve("colors"), List.of("from-resource-path"));
    Files.write(templates.resolve("colors"), List.of("from-template-directory"));
    Path template =
        TemplateRunner.write(
            templates,
            "branch: o=test\nsubordinateTemplate: t:1\n\ntemplate: t\nrdnAttr: cn\ncn: <file:colors>\n");
    Path withPath = directory.resolve("with.ldif");
    Path without = directory.resolve("without.ldif");

    MakeLdif.run(
        "-t", template.toString(), "-r", resources.toString(), "-o", withPath.toString(), "-Q");
    MakeLdif.run("-t", template.toString(), "-o", without.toString(), "-Q");

    assertThat(Files.readString(withPath)).contains("cn: from-resource-path");
    assertThat(Files.readString(without)).contains("cn: from-template-directory");
  }

  @Test
  void valuesThatAreNotSafeStrings_areWrittenAsBase64() throws Exception {
    Path template =
        TemplateRunner.write(
            directory,
            "branch: o=test\nsubordinateTemplate: t:1\n\ntemplate: t\nrdnAttr: cn\ncn: Zoë\n"
                + "description: <list: leading space>\n");
    Path ldif = directory.resolve("out.ldif");

    MakeLdif.run("-t", template.toString(), "-o", ldif.toString(), "-Q");

    String text = Files.readString(ldif, StandardCharsets.UTF_8);
    assertThat(text).contains("dn:: ").contains("cn:: Wm/Dqw==").contains("description:: ");
    Entry entry = read(Files.newInputStream(ldif)).get(1);
    assertThat(entry.getDN()).isEqualTo("cn=Zoë,o=test");
    assertThat(entry.getAttributeValue("description")).isEqualTo(" leading space");
  }
}
