package io.rockds.storage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;

/**
 * Writes records, given in ascending key order, into SST files of at most about {@code targetBytes}
 * each (a new file starts once the current one reaches it), for ingestion as one non-overlapping
 * set: an import then leaves files of the size compaction writes, not one file as large as the
 * tree.
 */
final class RollingSstWriter implements AutoCloseable {
  private final EnvOptions envOptions;
  private final Options options;
  private final Path directory;
  private final String name;
  private final long targetBytes;
  private final List<Path> files = new ArrayList<>();
  private SstFileWriter writer;

  /** Files go to {@code directory/name-N.sst}. */
  RollingSstWriter(
      EnvOptions envOptions, Options options, Path directory, String name, long targetBytes) {
    this.envOptions = envOptions;
    this.options = options;
    this.directory = directory;
    this.name = name;
    this.targetBytes = targetBytes;
  }

  /** Adds one record; its key must be greater than every key put before. */
  void put(byte[] key, byte[] value) throws RocksDBException {
    if (writer == null) {
      Path file = directory.resolve(name + "-" + files.size() + ".sst");
      writer = new SstFileWriter(envOptions, options);
      writer.open(file.toString());
      files.add(file);
    }
    writer.put(key, value);
    if (writer.fileSize() >= targetBytes) {
      finishCurrent();
    }
  }

  private void finishCurrent() throws RocksDBException {
    if (writer != null) {
      writer.finish();
      writer.close();
      writer = null;
    }
  }

  /**
   * Finishes the last file and returns every file written, in key order (none if no record came).
   */
  List<Path> finish() throws RocksDBException {
    finishCurrent();
    return List.copyOf(files);
  }

  @Override
  public void close() {
    if (writer != null) {
      writer.close();
      writer = null;
    }
  }
}
