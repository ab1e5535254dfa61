package io.rockds.tools.makeldif;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A parsed MakeLDIF template (see {@link TemplateParser} for the language and {@link TagFactory}
 * for the tags): its branches and templates, ready to be generated any number of times by {@link
 * LdifGenerator}. Immutable.
 */
public final class TemplateFile {
  /** OpenDJ's sample-data template: users {@code uid=user.N} below {@code ou=People,[suffix]}. */
  public static final String EXAMPLE = "example.template";

  private final List<Branch> branches;
  private final Map<String, Template> templates;

  TemplateFile(List<Branch> branches, Map<String, Template> templates) {
    this.branches = List.copyOf(branches);
    this.templates = Map.copyOf(templates);
  }

  /**
   * Parses a template file, or the built-in template of that name ({@link #EXAMPLE}) when no file
   * has that name.
   *
   * @param constants {@code -c name=value} constants; they win over the file's {@code define}s
   * @param resourcePath where {@code <file:name>} data files are looked for first; may be null
   * @throws TemplateException when the template is not valid, naming the line
   */
  public static TemplateFile load(
      String pathOrBuiltIn, Map<String, String> constants, Path resourcePath) throws IOException {
    Path path = Path.of(pathOrBuiltIn);
    if (Files.isRegularFile(path)) {
      Path directory = path.toAbsolutePath().getParent();
      return parse(
          Files.readAllLines(path, StandardCharsets.UTF_8),
          constants,
          new TemplateResources(resourcePath, directory));
    }
    List<String> builtIn = TemplateResources.readBuiltIn(pathOrBuiltIn);
    if (builtIn == null) {
      throw new NoSuchFileException(
          pathOrBuiltIn, null, "no such template file, nor a built-in template");
    }
    return parse(builtIn, constants, new TemplateResources(resourcePath, null));
  }

  static TemplateFile parse(
      List<String> lines, Map<String, String> constants, TemplateResources resources) {
    return new TemplateParser(constants, resources).parse(lines);
  }

  List<Branch> branches() {
    return branches;
  }

  Template template(String name) {
    return templates.get(name.toLowerCase(Locale.ROOT));
  }

  /** How many entries a run generates, or -1 past {@code Long.MAX_VALUE}. */
  public long entryCount() {
    try {
      long total = 0;
      for (Branch branch : branches) {
        total = Math.addExact(total, 1 + countBelow(branch.subordinates()));
      }
      return total;
    } catch (ArithmeticException e) {
      return -1;
    }
  }

  private long countBelow(List<Subordinate> subordinates) {
    long total = 0;
    for (Subordinate subordinate : subordinates) {
      long perEntry = 1 + countBelow(template(subordinate.templateName()).subordinates());
      total = Math.addExact(total, Math.multiplyExact(subordinate.count(), perEntry));
    }
    return total;
  }
}
