package io.rockds.storage.backup;

import java.time.Instant;
import java.util.List;

/**
 * One backup of a database as RocksDB's backup engine recorded it (its {@code meta/<number>} file).
 *
 * @param number the engine's backup number in its directory
 * @param time when the backup was taken
 * @param sequence the database sequence number the backup is consistent at
 * @param label the application metadata given when it was created (RockDS: the backup ID)
 * @param files the files the backup consists of, with their CRC32C checksums
 */
public record DatabaseBackup(
    int number, Instant time, long sequence, String label, List<BackupFile> files) {

  /**
   * A file of a backup, relative to the engine directory, and the CRC32C RocksDB computed when
   * copying it.
   */
  public record BackupFile(String path, long crc32c) {}

  public DatabaseBackup {
    files = List.copyOf(files);
  }
}
