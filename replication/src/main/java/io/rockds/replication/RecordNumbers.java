package io.rockds.replication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Numbers the committed records ({@link RecordPosition#number}): a function of the log alone, so
 * every member numbers a record alike. What it needs besides the log is the last number given up to
 * a snapshot's index, which the snapshot keeps in a file beside the applier's state ({@link
 * #FILE}); a snapshot without it (written before batches existed) counts as 0, which numbers a log
 * of one record per entry by its indexes, as before.
 */
final class RecordNumbers {
  /** The file of a snapshot directory holding the last number given up to its index. */
  static final String FILE = "record-numbers";

  private long last;

  /** The number of the first record of the entry at {@code index}, the next to be applied. */
  synchronized long firstOf(long index) {
    return Math.max(last + 1, index);
  }

  /**
   * The entry whose first record is numbered {@code first} was applied, {@code count} records: the
   * next entry is numbered after them. Not before, so that a snapshot of the entries before keeps
   * the number they left.
   */
  synchronized void applied(long first, int count) {
    last = Math.max(last, first + count - 1);
  }

  synchronized long last() {
    return last;
  }

  /** Goes on from a snapshot's numbers: after a restart, or once the leader's was installed. */
  synchronized void resume(Path snapshot) throws IOException {
    last = read(snapshot);
  }

  /** The last number given up to the index of the snapshot in directory {@code snapshot}. */
  static long read(Path snapshot) throws IOException {
    Path file = snapshot.resolve(FILE);
    if (!Files.exists(file)) {
      return 0;
    }
    String text = Files.readString(file, StandardCharsets.UTF_8).trim();
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IOException(file + " holds no number: " + text, e);
    }
  }

  static void write(Path snapshot, long last) throws IOException {
    Files.writeString(snapshot.resolve(FILE), Long.toString(last), StandardCharsets.UTF_8);
  }
}
