package io.rockds.storage;

import java.util.Locale;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * The one seam where RocksDB failures become {@link StorageException}s: nothing outside {@code
 * storage/} reads a RocksDB status.
 */
public final class StorageErrors {
  private StorageErrors() {}

  public static StorageException wrap(RocksDBException e) {
    StorageException.Kind kind = kindOf(e);
    String message = String.valueOf(e.getMessage());
    String text =
        switch (kind) {
          case DISK_FULL ->
              "disk full: the database volume has no space left; writes resume once space is freed ("
                  + message
                  + ")";
          case CORRUPT ->
              "the database is corrupt: "
                  + message
                  + " (check it with verify-index; restore from a backup)";
          case CLOSED -> "the backend is closed: " + message;
          case NOT_IN_MEMORY -> "not in memory: " + message;
          default -> "storage error: " + message;
        };
    return new StorageException(kind, text, null, e);
  }

  static StorageException.Kind kindOf(RocksDBException e) {
    Status status = e.getStatus();
    String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    Status.Code code = status == null ? null : status.getCode();
    Status.SubCode subCode = status == null ? null : status.getSubCode();
    if (subCode == Status.SubCode.NoSpace
        || message.contains("no space")
        || message.contains("space limit")
        || message.contains("max allowed space")) {
      return StorageException.Kind.DISK_FULL;
    }
    if (code == Status.Code.Incomplete) {
      return StorageException.Kind.NOT_IN_MEMORY; // only a memory-only read ends incomplete
    }
    if (code == Status.Code.Corruption) {
      return StorageException.Kind.CORRUPT;
    }
    if (code == Status.Code.ShutdownInProgress || message.contains("closed")) {
      return StorageException.Kind.CLOSED;
    }
    return StorageException.Kind.IO_ERROR;
  }
}
