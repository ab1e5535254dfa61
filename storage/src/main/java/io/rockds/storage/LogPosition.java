package io.rockds.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * A position in a replicated log: the entry (term, index) and the record's place ({@code slot})
 * among the entry's records, stored under one key of the backend's default column family by the
 * batch that applied it: a restart skips the records at or before it, so each applies exactly once,
 * a crash between two records of one entry included.
 *
 * <p>Stored as 24 bytes (term, index, slot); a value of 16 bytes (term, index), written before
 * entries held several records, is the entry's only record, slot 0.
 */
public record LogPosition(long term, long index, int slot) {
  public static final LogPosition NONE = new LogPosition(0, -1, 0);

  static final byte[] KEY = "applied-log-position".getBytes(StandardCharsets.UTF_8);

  byte[] encode() {
    return ByteBuffer.allocate(24).putLong(term).putLong(index).putLong(slot).array();
  }

  static LogPosition decode(byte[] value) {
    if (value == null || (value.length != 16 && value.length != 24)) {
      return NONE;
    }
    ByteBuffer buffer = ByteBuffer.wrap(value);
    long term = buffer.getLong();
    long index = buffer.getLong();
    return new LogPosition(term, index, value.length == 24 ? (int) buffer.getLong() : 0);
  }

  /**
   * The position stored in the closed backend database at {@code directory}, or {@link #NONE} when
   * there is no database there: read before the server opens its backends, to tell whether a
   * replication snapshot must replace one.
   */
  public static LogPosition storedIn(Path directory) throws IOException {
    if (!Files.exists(directory.resolve("CURRENT"))) {
      return NONE;
    }
    RocksDB.loadLibrary();
    // Read-only, the default column family alone: allowed without naming the others.
    try (Options options = new Options();
        RocksDB db = RocksDB.openReadOnly(options, directory.toString())) {
      return decode(db.get(KEY));
    } catch (RocksDBException e) {
      throw new IOException("cannot read the database at " + directory + ": " + e.getMessage(), e);
    }
  }

  /** Whether this position is at or before {@code other}'s: already applied if so. */
  public boolean notAfter(LogPosition other) {
    return index < other.index || (index == other.index && slot <= other.slot);
  }
}
