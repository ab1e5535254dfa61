package io.rockds.server.logging;

/**
 * Error log severities, most severe first; a publisher's {@code log-level} keeps those up to its
 * own.
 */
public enum ErrorSeverity {
  ERROR("ERROR"),
  WARNING("WARNING"),
  INFO("NOTICE");

  private final String label;

  ErrorSeverity(String label) {
    this.label = label;
  }

  /** OpenDJ's word in the error log: ERROR, WARNING or NOTICE. */
  String label() {
    return label;
  }

  static ErrorSeverity of(String logLevel) {
    return switch (logLevel) {
      case "error" -> ERROR;
      case "warning" -> WARNING;
      default -> INFO;
    };
  }
}
