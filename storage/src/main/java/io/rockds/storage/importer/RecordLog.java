package io.rockds.storage.importer;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A rejects or skips file: each record as it was read, preceded by a comment giving its line number
 * and the reason, so the file can be fixed and imported again.
 */
final class RecordLog implements AutoCloseable {
  private final BufferedWriter out;
  private long count;

  RecordLog(Path file) throws IOException {
    this.out = file == null ? null : Files.newBufferedWriter(file, StandardCharsets.UTF_8);
  }

  void write(long line, String reason, List<String> lines) throws IOException {
    count++;
    if (out == null) {
      return;
    }
    out.write("# line " + line + ": " + reason.replace('\n', ' '));
    out.newLine();
    for (String l : lines) {
      out.write(l);
      out.newLine();
    }
    out.newLine();
  }

  long count() {
    return count;
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
    }
  }
}
