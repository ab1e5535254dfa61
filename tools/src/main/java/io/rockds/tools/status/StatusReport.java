package io.rockds.tools.status;

import io.rockds.tools.TextTable;
import java.io.PrintWriter;

/**
 * Where {@link Status} writes: for people, labelled lines and tables; with {@code
 * --script-friendly}, only {@code name<TAB>value} lines with stable names (listed in the README),
 * one fact per line.
 */
final class StatusReport {
  private final PrintWriter out;
  private final boolean scriptFriendly;

  StatusReport(PrintWriter out, boolean scriptFriendly) {
    this.out = out;
    this.scriptFriendly = scriptFriendly;
  }

  /** A fact shown as {@code label + text} to people and as {@code name<TAB>text} to scripts. */
  void fact(String name, String label, Object text) {
    fact(name, label, text, text);
  }

  /**
   * A fact whose script value differs from its text, e.g. {@code running} for "running (pid 12), up
   * ...".
   */
  void fact(String name, String label, Object text, Object scriptValue) {
    if (scriptFriendly) {
      scriptOnly(name, scriptValue);
    } else {
      out.println(label + text);
    }
  }

  /** A fact only scripts get (people read it in a table or a sentence). */
  void scriptOnly(String name, Object value) {
    if (scriptFriendly) {
      out.println(name + "\t" + value);
    }
  }

  /** A sentence only people get. */
  void prose(String line) {
    if (!scriptFriendly) {
      out.println(line);
    }
  }

  void table(TextTable table) {
    if (!scriptFriendly) {
      table.print(out);
    }
  }

  void blank() {
    prose("");
  }

  void flush() {
    out.flush();
  }
}
