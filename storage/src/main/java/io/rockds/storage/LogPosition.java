package io.rockds.storage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A position (term, index) in a replicated log, stored under one key of the backend's default
 * column family by the batch that applied it: a restart skips the records at or before it, so each
 * applies exactly once.
 */
public record LogPosition(long term, long index) {
  public static final LogPosition NONE = new LogPosition(0, -1);

  static final byte[] KEY = "applied-log-position".getBytes(StandardCharsets.UTF_8);

  byte[] encode() {
    return ByteBuffer.allocate(16).putLong(term).putLong(index).array();
  }

  static LogPosition decode(byte[] value) {
    if (value == null || value.length != 16) {
      return NONE;
    }
    ByteBuffer buffer = ByteBuffer.wrap(value);
    return new LogPosition(buffer.getLong(), buffer.getLong());
  }

  /** Whether this position is at or before {@code other}'s: already applied if so. */
  public boolean notAfter(LogPosition other) {
    return index <= other.index;
  }
}
