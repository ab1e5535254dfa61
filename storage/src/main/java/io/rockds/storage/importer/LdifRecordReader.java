package io.rockds.storage.importer;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits LDIF text into records (runs of non-blank lines) without parsing them, so parsing can run
 * in parallel. Comment lines (and their continuations) and the {@code version:} line are dropped;
 * each record keeps the line number it starts on for the rejects file.
 */
final class LdifRecordReader {
  /** One raw record: its first line number (1-based) and its lines, still folded. */
  record Record(long line, List<String> lines) {}

  private final BufferedReader in;
  private long lineNumber;

  LdifRecordReader(BufferedReader in) {
    this.in = in;
  }

  /** The next record, or null at the end of the input. */
  Record next() throws IOException {
    List<String> lines = new ArrayList<>();
    long start = 0;
    boolean inComment = false;
    String line;
    while ((line = in.readLine()) != null) {
      lineNumber++;
      if (line.isEmpty()) {
        if (!lines.isEmpty()) {
          return new Record(start, lines);
        }
        inComment = false;
        continue;
      }
      if (line.startsWith("#") || (inComment && line.startsWith(" "))) {
        inComment = true;
        continue;
      }
      inComment = false;
      if (lines.isEmpty()) {
        if (line.regionMatches(true, 0, "version:", 0, 8)) {
          continue;
        }
        start = lineNumber;
      }
      lines.add(line);
    }
    return lines.isEmpty() ? null : new Record(start, lines);
  }
}
