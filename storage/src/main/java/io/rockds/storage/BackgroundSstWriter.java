package io.rockds.storage;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;

/**
 * Writes records, given in ascending key order, to SST files ({@link RollingSstWriter}) on a thread
 * of its own, so that compressing them (ZSTD, the largest tree: {@code id2entry}) does not hold up
 * the caller, the import's single writer thread. A failure is reported by the next {@link #put} or
 * by {@link #finish}.
 */
final class BackgroundSstWriter implements AutoCloseable {
  private static final int QUEUED = 1024;
  private static final byte[][] END = new byte[0][];

  private final RollingSstWriter writer;
  private final BlockingQueue<byte[][]> queue = new ArrayBlockingQueue<>(QUEUED);
  private final Thread thread;
  private volatile RocksDBException failure;

  BackgroundSstWriter(
      EnvOptions envOptions, Options options, Path directory, String name, long targetBytes) {
    writer = new RollingSstWriter(envOptions, options, directory, name, targetBytes);
    String threadName = "import-" + name;
    thread = new Thread(this::run, threadName);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    try {
      for (byte[][] record = queue.take(); record != END; record = queue.take()) {
        if (failure == null) {
          try {
            writer.put(record[0], record[1]);
          } catch (RocksDBException e) {
            failure = e;
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Queues one record; its key must be greater than every key put before. */
  void put(byte[] key, byte[] value) throws RocksDBException {
    if (failure != null) {
      throw failure;
    }
    enqueue(new byte[][] {key, value});
  }

  private void enqueue(byte[][] record) throws RocksDBException {
    try {
      queue.put(record);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RocksDBException("interrupted while writing an SST file");
    }
  }

  /**
   * Waits until every record is written and returns the files to ingest (none if no record came).
   */
  List<Path> finish() throws RocksDBException {
    enqueue(END);
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RocksDBException("interrupted while writing an SST file");
    }
    if (failure != null) {
      throw failure;
    }
    return writer.finish();
  }

  @Override
  public void close() {
    if (thread.isAlive()) {
      thread.interrupt();
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    writer.close();
  }
}
