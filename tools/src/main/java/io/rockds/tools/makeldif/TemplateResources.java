package io.rockds.tools.makeldif;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the data files named by {@code <file:name>}, {@code <first>} and {@code <last>}, and
 * built-in templates. A relative name is looked up, in order, in the {@code --resourcePath}
 * directory, in the directory of the template file, and among the built-in resources ({@code
 * first.names}, {@code last.names}, {@code cities}, {@code states}, {@code streets}, {@code
 * example.template}, as OpenDJ ships them). Each file is read once per template.
 */
final class TemplateResources {
  static final String BUILT_IN_FOLDER = "/io/rockds/tools/makeldif/";

  private final Path resourcePath;
  private final Path templateDirectory;
  private final Map<String, WordList> loaded = new HashMap<>();

  /** Either directory may be null. */
  TemplateResources(Path resourcePath, Path templateDirectory) {
    this.resourcePath = resourcePath;
    this.templateDirectory = templateDirectory;
  }

  WordList wordList(String name, int lineNumber) {
    WordList list = loaded.get(name);
    if (list == null) {
      list = WordList.parse(readLines(name, lineNumber), "file '" + name + "'", lineNumber);
      loaded.put(name, list);
    }
    return list;
  }

  private List<String> readLines(String name, int lineNumber) {
    try {
      Path file = findFile(name);
      if (file != null) {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
      }
      List<String> builtIn = readBuiltIn(name);
      if (builtIn != null) {
        return builtIn;
      }
    } catch (IOException e) {
      throw new TemplateException(lineNumber, "cannot read file '" + name + "': " + e.getMessage());
    }
    throw new TemplateException(
        lineNumber,
        "file '"
            + name
            + "' not found (looked in the resource path "
            + resourcePath
            + ", the template directory "
            + templateDirectory
            + " and the built-in files)");
  }

  private Path findFile(String name) {
    Path path = Path.of(name);
    if (path.isAbsolute()) {
      return Files.isRegularFile(path) ? path : null;
    }
    for (Path directory : new Path[] {resourcePath, templateDirectory}) {
      if (directory != null && Files.isRegularFile(directory.resolve(path))) {
        return directory.resolve(path);
      }
    }
    return null;
  }

  /** The lines of a built-in resource, or null when there is none of that name. */
  static List<String> readBuiltIn(String name) throws IOException {
    if (name.contains("/") || name.contains("\\")) {
      return null;
    }
    try (InputStream in = TemplateResources.class.getResourceAsStream(BUILT_IN_FOLDER + name)) {
      if (in == null) {
        return null;
      }
      List<String> lines = new ArrayList<>();
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines.add(line);
      }
      return lines;
    }
  }
}
