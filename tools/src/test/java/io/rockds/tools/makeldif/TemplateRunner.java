package io.rockds.tools.makeldif;

import com.unboundid.ldap.sdk.Entry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Writes a template to a real file and generates its entries, as the tool does. */
final class TemplateRunner {
  /** The repository's benchmark templates, seen from the tools module directory. */
  static final Path BENCHMARK_TEMPLATES = Path.of("..", "benchmarks", "templates");

  private TemplateRunner() {}

  static Path write(Path directory, String text) throws IOException {
    Path file = directory.resolve("test.template");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  static List<Entry> generate(Path template, Map<String, String> constants, long seed)
      throws IOException {
    List<Entry> entries = new ArrayList<>();
    LdifGenerator.generate(
        TemplateFile.load(template.toString(), constants, null), seed, entries::add);
    return entries;
  }

  /**
   * The {@code count} entries of template {@code t} (rdnAttr uid, uid u.0, u.1, ...) holding {@code
   * lines}, below branch dc=example,dc=com.
   */
  static List<Entry> entries(Path directory, int count, String... lines) throws IOException {
    String text =
        "branch: dc=example,dc=com\nsubordinateTemplate: t:"
            + count
            + "\n\n"
            + "template: t\nrdnAttr: uid\nuid: u.<sequential:0>\n"
            + String.join("\n", lines)
            + "\n";
    List<Entry> all = generate(write(directory, text), Map.of(), 7);
    return all.subList(1, all.size());
  }
}
