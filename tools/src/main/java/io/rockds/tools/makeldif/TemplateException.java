package io.rockds.tools.makeldif;

/**
 * A template that cannot be parsed or generated: a syntax error, an unknown tag or template, a
 * missing data file. The message starts with the template line number when there is one.
 */
public final class TemplateException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int lineNumber;

  TemplateException(int lineNumber, String message) {
    super(lineNumber > 0 ? "line " + lineNumber + ": " + message : message);
    this.lineNumber = lineNumber;
  }

  /** The 1-based template line the error is about, or 0 when it concerns no single line. */
  public int lineNumber() {
    return lineNumber;
  }
}
