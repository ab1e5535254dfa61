package io.rockds.tools.dsconfig;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A dsconfig batch file ({@code --batchFilePath}), as OpenDJ reads it: one subcommand with its
 * options per line, words split as a shell splits them (single and double quotes, backslash
 * escapes), a line ending in a backslash continued on the next, blank lines and {@code #} comments
 * skipped.
 */
final class BatchFile {
  /** One command of the file and the line it starts on. */
  record Command(int line, List<String> words) {}

  private BatchFile() {}

  static List<Command> read(Path file) throws IOException {
    List<Command> commands = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    int start = 0;
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (pending.length() == 0) {
        start = i + 1;
        if (line.isBlank() || line.strip().startsWith("#")) {
          continue;
        }
      }
      if (line.endsWith("\\")) {
        pending.append(line, 0, line.length() - 1).append(' ');
        continue;
      }
      pending.append(line);
      commands.add(new Command(start, words(pending.toString(), start)));
      pending.setLength(0);
    }
    if (pending.length() > 0) {
      commands.add(new Command(start, words(pending.toString(), start)));
    }
    return commands;
  }

  /** Splits a line into words as a POSIX shell would (no variables or globs). */
  static List<String> words(String line, int lineNumber) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote == '\'') {
        if (c == '\'') {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\\'
          && i + 1 < line.length()
          && (quote == 0 || "\"\\$`".indexOf(line.charAt(i + 1)) >= 0)) {
        word = word == null ? new StringBuilder() : word;
        word.append(line.charAt(++i));
      } else if (quote == '"') {
        if (c == '"') {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        word = word == null ? new StringBuilder() : word;
        quote = c;
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException(
          "line " + lineNumber + ": unterminated " + quote + " quote");
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }
}
