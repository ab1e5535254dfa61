package io.rockds.tools.makeldif;

import java.util.Arrays;
import java.util.List;

/** The colon-separated arguments of a tag, with number parsing that reports the template line. */
final class TagArguments {
  private final String tag;
  private final List<String> values;
  private final int lineNumber;

  /**
   * @param arguments the tag body after its name and colon, or null when it has no arguments
   */
  TagArguments(String tag, String arguments, int lineNumber) {
    this.tag = tag;
    this.values = arguments == null ? List.of() : Arrays.asList(arguments.split(":", -1));
    this.lineNumber = lineNumber;
  }

  int lineNumber() {
    return lineNumber;
  }

  int size() {
    return values.size();
  }

  String get(int index) {
    return values.get(index);
  }

  /** Fails unless the tag has between {@code min} and {@code max} arguments. */
  void expectCount(int min, int max, String usage) {
    if (values.size() < min || values.size() > max) {
      throw error("expected " + usage);
    }
  }

  int intAt(int index) {
    return parseInt(values.get(index), "<" + tag + ">", lineNumber);
  }

  long longAt(int index) {
    try {
      return Long.parseLong(values.get(index).trim());
    } catch (NumberFormatException e) {
      throw error("'" + values.get(index) + "' is not an integer");
    }
  }

  TemplateException error(String message) {
    return new TemplateException(lineNumber, "<" + tag + ">: " + message);
  }

  static int parseInt(String text, String where, int lineNumber) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new TemplateException(lineNumber, where + ": '" + text + "' is not an integer");
    }
  }
}
