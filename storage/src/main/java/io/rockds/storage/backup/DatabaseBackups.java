package io.rockds.storage.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;
import org.rocksdb.BackupEngine;
import org.rocksdb.BackupEngineOptions;
import org.rocksdb.Env;
import org.rocksdb.RestoreOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The backups of one database in one directory, kept by RocksDB's {@link BackupEngine}. A backup
 * flushes the memtables and copies the live files while writes go on: it is consistent at one
 * sequence number, and RocksDB keeps the files it copies from being deleted meanwhile.
 *
 * <p>Files are checksummed with CRC32C in the engine's {@code meta/<number>} file; {@link #verify}
 * recomputes them, and a restore checks them as it copies.
 */
public final class DatabaseBackups {
  static {
    RocksDB.loadLibrary();
  }

  private final Path directory;

  public DatabaseBackups(Path directory) {
    this.directory = directory.toAbsolutePath().normalize();
  }

  public Path directory() {
    return directory;
  }

  /**
   * Backs {@code db} up; returns the new backup.
   *
   * @param label application metadata stored with the backup
   * @param shareFiles true: SST files are shared with the other backups of the directory, so only
   *     new ones are copied (incremental); false: every file is copied privately (a full backup)
   */
  public DatabaseBackup create(RocksDB db, String label, boolean shareFiles) throws IOException {
    Files.createDirectories(directory);
    try (BackupEngineOptions options = options().setShareTableFiles(shareFiles);
        BackupEngine engine = BackupEngine.open(Env.getDefault(), options)) {
      engine.createNewBackupWithMetadata(db, label, true);
      int number =
          engine.getBackupInfo().stream()
              .mapToInt(b -> b.backupId())
              .max()
              .orElseThrow(() -> new IOException("RocksDB recorded no backup in " + directory));
      return read(number);
    } catch (RocksDBException e) {
      throw failure("cannot back up into " + directory, e);
    }
  }

  /** The backups in the directory, oldest first; none when the directory does not exist. */
  public List<DatabaseBackup> list() throws IOException {
    List<DatabaseBackup> backups = new ArrayList<>();
    Path meta = directory.resolve("meta");
    if (!Files.isDirectory(meta)) {
      return backups;
    }
    List<Integer> numbers = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(meta)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit)) {
          numbers.add(Integer.parseInt(name));
        }
      }
    }
    numbers.sort(null);
    for (int number : numbers) {
      backups.add(read(number));
    }
    return backups;
  }

  /**
   * Recomputes the CRC32C of every file of backup {@code number}; throws naming the first file that
   * is missing or whose checksum differs.
   */
  public void verify(int number) throws IOException {
    for (DatabaseBackup.BackupFile file : read(number).files()) {
      Path path = directory.resolve(file.path());
      long actual;
      try {
        actual = crc32c(path);
      } catch (NoSuchFileException e) {
        throw new IOException(path + ": missing from backup " + number);
      }
      if (actual != file.crc32c()) {
        throw new IOException(
            path
                + ": corrupted (CRC32C "
                + actual
                + ", the backup recorded "
                + file.crc32c()
                + ")");
      }
    }
  }

  /**
   * Restores backup {@code number} into {@code target}, which must not hold a database; RocksDB
   * checks each file's checksum.
   */
  public void restore(int number, Path target) throws IOException {
    Files.createDirectories(target);
    try (BackupEngineOptions options = options();
        BackupEngine engine = BackupEngine.open(Env.getDefault(), options);
        RestoreOptions restore = new RestoreOptions(false)) {
      engine.restoreDbFromBackup(number, target.toString(), target.toString(), restore);
    } catch (RocksDBException e) {
      throw failure("cannot restore backup " + number + " of " + directory, e);
    }
  }

  /** Deletes backup {@code number} and the shared files no other backup uses. */
  public void delete(int number) throws IOException {
    try (BackupEngineOptions options = options();
        BackupEngine engine = BackupEngine.open(Env.getDefault(), options)) {
      engine.deleteBackup(number);
    } catch (RocksDBException e) {
      throw failure("cannot delete backup " + number + " of " + directory, e);
    }
  }

  private BackupEngineOptions options() {
    return new BackupEngineOptions(directory.toString())
        .setShareFilesWithChecksum(true)
        .setSync(true);
  }

  /**
   * Reads {@code meta/<number>}: an optional {@code schema_version} line, the time (epoch seconds),
   * the sequence number, optional {@code metadata <hex>}, the file count, then one line per file:
   * {@code <path> crc32 <crc32c>}.
   */
  DatabaseBackup read(int number) throws IOException {
    Path meta = directory.resolve("meta").resolve(Integer.toString(number));
    List<String> lines = Files.readAllLines(meta, StandardCharsets.UTF_8);
    try {
      int i = 0;
      if (lines.get(i).startsWith("schema_version")) {
        i++;
      }
      Instant time = Instant.ofEpochSecond(Long.parseLong(lines.get(i++).strip()));
      long sequence = Long.parseLong(lines.get(i++).strip());
      String label = "";
      while (!lines.get(i).strip().chars().allMatch(Character::isDigit)) {
        String line = lines.get(i++);
        if (line.startsWith("metadata ")) {
          label =
              new String(
                  HexFormat.of().parseHex(line.substring("metadata ".length()).strip()),
                  StandardCharsets.UTF_8);
        }
      }
      int count = Integer.parseInt(lines.get(i++).strip());
      List<DatabaseBackup.BackupFile> files = new ArrayList<>(count);
      for (int f = 0; f < count; f++) {
        String[] fields = lines.get(i++).strip().split(" ");
        int crc = List.of(fields).indexOf("crc32");
        if (crc < 1 || crc + 1 >= fields.length) {
          throw new IOException(meta + ": no crc32 for " + fields[0]);
        }
        files.add(new DatabaseBackup.BackupFile(fields[0], Long.parseLong(fields[crc + 1])));
      }
      return new DatabaseBackup(number, time, sequence, label, files);
    } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new IOException(
          meta + ": not a RocksDB backup description (" + e.getMessage() + ")", e);
    }
  }

  private static long crc32c(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        crc.update(buffer, 0, n);
      }
    }
    return crc.getValue();
  }

  private static IOException failure(String what, RocksDBException e) {
    return new IOException(what + ": " + e.getMessage(), e);
  }
}
