package io.rockds.storage;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Reads a backend's trees in key order after start so that the block cache holds them before the
 * clients ask (OpenDJ's {@code preload-time-limit}). Without it a server restarted on 1M entries
 * served 9,400 searches/s at first and 14,000 only after four minutes of random reads had filled
 * the cache.
 *
 * <p>The trees come in the order the backend gives ({@link Backend#startPreload}: what most
 * searches read first). It runs on its own thread while the server already serves, and stops at the
 * time limit, when the cache is nearly full (a scan must not evict the blocks it just read, nor the
 * index and filter blocks), or when the backend closes.
 */
public final class CachePreload {
  /** Stop when the cache holds this share of its capacity. */
  static final double FULL_RATIO = 0.9;

  /** Keys read between two checks of the clock, the cache and the stop flag. */
  private static final int CHECK_EVERY = 256;

  /** Read ahead for the scans: they are sequential, unlike the lookups of the clients. */
  private static final long READAHEAD_BYTES = 2L << 20;

  /** Why a preload ended. */
  public enum Outcome {
    /** Every tree was read. */
    COMPLETE("every tree read"),
    /** The time limit passed first. */
    TIME_LIMIT("time limit reached"),
    /** The block cache was nearly full. */
    CACHE_FULL("block cache nearly full"),
    /** The backend closed. */
    STOPPED("stopped by the backend's closing"),
    /** RocksDB refused a read (the backend's health says why). */
    FAILED("failed reading");

    private final String label;

    Outcome(String label) {
      this.label = label;
    }

    /** For logs and the monitor. */
    public String label() {
      return label;
    }
  }

  /**
   * What a preload did.
   *
   * @param outcome why it ended
   * @param keys records read
   * @param elapsed how long it ran
   */
  public record Result(Outcome outcome, long keys, Duration elapsed) {}

  private final RocksDB db;
  private final List<ColumnFamilyHandle> trees;
  private final LRUCache cache;
  private final long cacheCapacity;
  private final Duration limit;
  private final Clock clock;
  private final CompletableFuture<Result> result = new CompletableFuture<>();
  private volatile boolean stopping;
  private volatile long keysRead;
  private Thread thread;

  /** Reads {@code trees} in this order. */
  CachePreload(
      RocksDB db,
      List<ColumnFamilyHandle> trees,
      LRUCache cache,
      long cacheCapacity,
      Duration limit,
      Clock clock) {
    this.db = db;
    this.trees = List.copyOf(trees);
    this.cache = cache;
    this.cacheCapacity = cacheCapacity;
    this.limit = limit;
    this.clock = clock;
  }

  /** Starts the scan on a thread named after the backend. */
  synchronized void start(String backendId) {
    thread = new Thread(this::run, "preload-" + backendId);
    thread.setDaemon(true);
    thread.setPriority(Thread.MIN_PRIORITY);
    thread.start();
  }

  /** Completes with the result once the preload ends. */
  public CompletableFuture<Result> result() {
    return result;
  }

  /** Records read so far. */
  public long keysRead() {
    return keysRead;
  }

  /** Asks the scan to stop and waits for it, so that the database can close under no iterator. */
  void stop() {
    stopping = true;
    Thread running;
    synchronized (this) {
      running = thread;
    }
    if (running == null || running == Thread.currentThread()) {
      return;
    }
    boolean interrupted = false;
    while (running.isAlive()) {
      try {
        running.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    Instant start = clock.instant();
    Outcome outcome = Outcome.COMPLETE;
    try (ReadOptions options =
        new ReadOptions().setFillCache(true).setReadaheadSize(READAHEAD_BYTES)) {
      for (ColumnFamilyHandle tree : trees) {
        outcome = scan(tree, options, start);
        if (outcome != Outcome.COMPLETE) {
          break;
        }
      }
    } catch (RocksDBException | RuntimeException e) {
      outcome = Outcome.FAILED;
    }
    result.complete(new Result(outcome, keysRead, Duration.between(start, clock.instant())));
  }

  private Outcome scan(ColumnFamilyHandle tree, ReadOptions options, Instant start)
      throws RocksDBException {
    try (RocksIterator it = db.newIterator(tree, options)) {
      // Positioning on a record loads its block: neither key nor value need be copied out.
      int sinceCheck = 0;
      long keys = keysRead;
      for (it.seekToFirst(); it.isValid(); it.next()) {
        keys++;
        if (++sinceCheck == CHECK_EVERY) {
          sinceCheck = 0;
          keysRead = keys;
          Outcome stop = shouldStop(start);
          if (stop != null) {
            return stop;
          }
        }
      }
      keysRead = keys;
      it.status();
    }
    Outcome stop = shouldStop(start);
    return stop != null ? stop : Outcome.COMPLETE;
  }

  private Outcome shouldStop(Instant start) {
    if (stopping) {
      return Outcome.STOPPED;
    }
    if (cache.getUsage() >= cacheCapacity * FULL_RATIO) {
      return Outcome.CACHE_FULL;
    }
    if (Duration.between(start, clock.instant()).compareTo(limit) >= 0) {
      return Outcome.TIME_LIMIT;
    }
    return null;
  }
}
