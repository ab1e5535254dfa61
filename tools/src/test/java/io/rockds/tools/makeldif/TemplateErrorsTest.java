package io.rockds.tools.makeldif;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A bad template fails with a message naming the line and the problem. */
class TemplateErrorsTest {
  private static final String HEAD =
      "branch: dc=example,dc=com\nsubordinateTemplate: t:2\n\ntemplate: t\nrdnAttr: uid\nuid: u<sequential>\n";

  @TempDir Path directory;

  private TemplateException failure(String text) throws IOException {
    Path template = TemplateRunner.write(directory, text);
    try {
      TemplateRunner.generate(template, Map.of(), 1);
    } catch (TemplateException e) {
      return e;
    }
    throw new AssertionError("no error for template:\n" + text);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a: <nosuchtag>          | 7 | unknown tag <nosuchtag>",
        "a: <random:alpha:5      | 7 | has no closing '>'",
        "a: {sn                  | 7 | has no closing '}'",
        "a: <random:colour>      | 7 | unknown random type 'colour'",
        "a: <random:alpha:x>     | 7 | 'x' is not an integer",
        "a: <random:alpha:5:2>   | 7 | expected: 0 <= min <= max",
        "a: <presence:120>       | 7 | percent 120 (expected: 0 to 100)",
        "a: <sequential:1:2:maybe> | 7 | 'maybe' is neither true nor false",
        "a: <file:no-such-file>  | 7 | file 'no-such-file' not found",
        "a: <file:streets:shuffled> | 7 | neither random nor sequential",
        "a: <partition:1:2:0>    | 7 | parts 0 (expected: > 0)",
        "a: <partition:1:9:3><partition:1:9:3> | 7 | only one <partition>",
        "a: <base64:<partition:1:9:3>> | 7 | cannot be nested",
        "a: <first:x>            | 7 | expected no arguments",
        "bad name: x             | 7 | 'bad name' is not an attribute name",
        "no colon here           | 7 | expected 'attribute: value'",
        "subordinateTemplate: nosuch:1 | 7 | unknown template 'nosuch'",
        "subordinateTemplate: t:[undefined] | 7 | is not an integer",
        "photo:: not base64!     | 7 | photo:: expects base64 text",
      })
  void badLine_isReportedWithItsLineNumber(String line, int lineNumber, String message)
      throws IOException {
    TemplateException error = failure(HEAD + line + "\n");

    assertThat(error.lineNumber()).isEqualTo(lineNumber);
    assertThat(error.getMessage()).startsWith("line " + lineNumber + ": ").contains(message);
  }

  @Test
  void structuralErrors_nameTheirLine() throws IOException {
    assertThat(failure("# nothing\n").getMessage()).contains("defines no branch");
    assertThat(failure("hello\n").getMessage())
        .isEqualTo(
            "line 1: expected 'define', 'branch:' or 'template:' (or a blank line), found: hello");
    assertThat(failure("include com.example.Tag\n").getMessage())
        .contains("line 1:")
        .contains("not supported");
    assertThat(failure("branch: not a dn\n").getMessage())
        .contains("line 1: branch DN 'not a dn' is not valid");
    assertThat(
            failure("branch: o=x\nsubordinateTemplate: t:1\n\ntemplate: t\ncn: x\n").getMessage())
        .isEqualTo("line 4: template 't' has no rdnAttr");
    assertThat(failure("branch: o=x\n\ntemplate: t\nrdnAttr: uid\ncn: x\n").getMessage())
        .contains("line 3:")
        .contains("rdnAttr uid but no line for it");
    assertThat(failure("branch: o=x\n\ntemplate: t\nextends: u\nrdnAttr: cn\ncn: x\n").getMessage())
        .contains("line 3:")
        .contains("extends unknown template 'u'");
    assertThat(
            failure(
                    "branch: o=x\n\ntemplate: t\nrdnAttr: cn\ncn: x\n\ntemplate: t\nrdnAttr: cn\ncn: y\n")
                .getMessage())
        .contains("line 7: template 't' is already defined at line 3");
    assertThat(
            failure(
                    "branch: o=x\nsubordinateTemplate: t:1\n\ntemplate: t\nrdnAttr: cn\ncn: x\nsubordinateTemplate: t:1\n")
                .getMessage())
        .contains("is its own subordinateTemplate");
    assertThat(
            failure("branch: o=x\n\ntemplate: t\nrdnAttr: cn\ncn: x\na: 1\na:: AA==\n")
                .getMessage())
        .contains("line 7: a mixes 'attr:' and 'attr::' lines (see line 6)");
    assertThat(
            failure(
                    "branch: o=x\nsubordinateTemplate: t:1\n\ntemplate: t\nrdnAttr: cn\ndn: <DN>\ncn: x\n")
                .getMessage())
        .contains("line 7: rdnAttr cn has no value yet");
  }

  @Test
  void makeLdif_printsTheErrorWithFileAndLineAndExitsWithOne() throws IOException {
    Path template = TemplateRunner.write(directory, HEAD + "a: <oops>\n");
    Path ldif = directory.resolve("out.ldif");
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    PrintStream originalErr = System.err;
    int exit;
    System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
    try {
      exit = MakeLdif.run("-t", template.toString(), "-o", ldif.toString());
    } finally {
      System.setErr(originalErr);
    }

    assertThat(exit).isEqualTo(1);
    assertThat(errors.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "makeldif: " + template + ": line 7: unknown tag <oops>" + System.lineSeparator());
    assertThat(Files.exists(ldif)).isFalse();
  }

  @Test
  void makeLdif_rejectsAMissingTemplateAndBadUsage() {
    assertThat(MakeLdif.run("-t", directory.resolve("missing.template").toString(), "-Q"))
        .isEqualTo(1);
    assertThat(MakeLdif.run("--no-such-option")).isEqualTo(2);
    assertThatThrownBy(() -> TemplateFile.load("missing.template", Map.of(), null))
        .isInstanceOf(java.nio.file.NoSuchFileException.class);
  }
}
