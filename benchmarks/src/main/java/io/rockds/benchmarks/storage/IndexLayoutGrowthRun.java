package io.rockds.benchmarks.storage;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.rocksdb.RocksDBException;

/**
 * Adds synthetic entries ({@link SyntheticDirectory}, about 50 index keys each) with two writer
 * threads into one {@link LayoutVariant}, and prints as Markdown tables: the add rate as the
 * database grows (the first 10,000 entries, then per 100,000 the mean rate and the slowest
 * 10,000-entry window) and the process CPU time per entry, then the disk footprint after a full
 * compaction and the time of a backendstat-style {@link EntryLimitReport}. Bounded by an entry
 * count and a time limit; the database lives in a temporary directory deleted at the end.
 *
 * <pre>
 * ./mvnw -q -pl benchmarks -am package -DskipTests
 * java -Xmx2g -cp benchmarks/target/benchmarks.jar io.rockds.benchmarks.storage.IndexLayoutGrowthRun \
 *     ID_LIST_VARINT 1000000 240 nosync
 * </pre>
 *
 * Arguments: layout ({@link LayoutVariant} name), maximum entries, maximum seconds of adding,
 * {@code sync} or {@code nosync} (WAL fsync on every commit or not).
 */
public final class IndexLayoutGrowthRun {

  private static final int WINDOW = 10_000;
  private static final int WINDOWS_PER_BAND = 10;
  private static final int WRITERS = 2;

  private IndexLayoutGrowthRun() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 4 || !List.of("sync", "nosync").contains(args[3])) {
      System.err.println(
          "usage: IndexLayoutGrowthRun <layout> <max-entries> <max-seconds> sync|nosync");
      System.exit(2);
    }
    LayoutVariant variant = LayoutVariant.valueOf(args[0]);
    int maxEntries = Integer.parseInt(args[1]);
    long maxSeconds = Long.parseLong(args[2]);
    boolean sync = args[3].equals("sync");
    try (BenchmarkDatabase database = BenchmarkDatabase.openTemporary(sync)) {
      IndexLayout layout = variant.open(database, LayoutVariant.DEFAULT_ENTRY_LIMIT);
      System.out.printf(
          Locale.ROOT,
          "## %s, %s, %d writers, entry limit %d%n%n",
          variant,
          args[3],
          WRITERS,
          LayoutVariant.DEFAULT_ENTRY_LIMIT);
      Growth growth = grow(layout, maxEntries, TimeUnit.SECONDS.toNanos(maxSeconds));
      growth.print();
      printFootprintAndReport(database, layout);
    }
  }

  /** Window end times and index key counts, filled concurrently by the writers. */
  private record Growth(
      long start, long[] windowEnds, long entries, double keysPerEntry, long cpuNanos) {

    void print() {
      int windows = (int) (entries / WINDOW);
      if (windows == 0) {
        System.out.printf(
            Locale.ROOT, "fewer than %,d entries added: no full window to report%n%n", WINDOW);
        return;
      }
      System.out.println(
          "| entries present | mean entries/s | slowest 10k window, entries/s | mean index keys/s |");
      System.out.println("| --- | ---: | ---: | ---: |");
      printBand(0, 1);
      for (int first = 0; first < windows; first += WINDOWS_PER_BAND) {
        printBand(first, Math.min(windows, first + WINDOWS_PER_BAND));
      }
      double seconds = (windowEnds[windows - 1] - start) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "%nadded %,d entries (%.1f index keys each); %,d in %.1f s: %,.0f entries/s overall%n",
          entries,
          keysPerEntry,
          (long) windows * WINDOW,
          seconds,
          windows * WINDOW / seconds);
      System.out.printf(
          Locale.ROOT,
          "process CPU while adding (writers and RocksDB background jobs): %.1f s, "
              + "%.1f ms per 1,000 entries%n%n",
          cpuNanos / 1e9,
          cpuNanos / 1e6 / (entries / 1000.0));
    }

    /** Prints the rate of windows [first, end): their mean and the slowest of them. */
    private void printBand(int first, int end) {
      long bandStart = first == 0 ? start : windowEnds[first - 1];
      double mean = (double) (end - first) * WINDOW / ((windowEnds[end - 1] - bandStart) / 1e9);
      double slowest = Double.MAX_VALUE;
      for (int w = first; w < end; w++) {
        long windowStart = w == 0 ? start : windowEnds[w - 1];
        slowest = Math.min(slowest, WINDOW / ((windowEnds[w] - windowStart) / 1e9));
      }
      System.out.printf(
          Locale.ROOT,
          "| %,dk – %,dk | %,.0f | %,.0f | %,.0f |%n",
          first * (WINDOW / 1000),
          end * (WINDOW / 1000),
          mean,
          slowest,
          mean * keysPerEntry);
    }
  }

  private static Growth grow(IndexLayout layout, int maxEntries, long maxNanos)
      throws InterruptedException {
    SyntheticDirectory directory = new SyntheticDirectory();
    AtomicLong nextId = new AtomicLong(1);
    AtomicLong completed = new AtomicLong();
    AtomicLong keys = new AtomicLong();
    AtomicReference<Exception> failure = new AtomicReference<>();
    long[] windowEnds = new long[maxEntries / WINDOW + 1];
    long cpuStart = processCpuNanos();
    long start = System.nanoTime();
    long deadline = start + maxNanos;
    Runnable writer =
        () -> {
          try {
            for (long id = nextId.getAndIncrement();
                id <= maxEntries && System.nanoTime() < deadline;
                id = nextId.getAndIncrement()) {
              List<byte[]> entryKeys = directory.indexKeys(id);
              layout.addEntry(id, entryKeys);
              keys.addAndGet(entryKeys.size());
              long done = completed.incrementAndGet();
              if (done % WINDOW == 0) {
                windowEnds[(int) (done / WINDOW) - 1] = System.nanoTime();
              }
            }
          } catch (RocksDBException | RuntimeException e) {
            failure.compareAndSet(null, e);
          }
        };
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < WRITERS; i++) {
      Thread thread = new Thread(writer, "writer-" + i);
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure.get() != null) {
      throw new IllegalStateException("a writer failed", failure.get());
    }
    long entries = completed.get();
    return new Growth(
        start,
        windowEnds,
        entries,
        entries == 0 ? 0 : (double) keys.get() / entries,
        processCpuNanos() - cpuStart);
  }

  /**
   * CPU time of the whole process, RocksDB's native threads included: on a machine shared with
   * other work this is steadier than wall-clock rates.
   */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static void printFootprintAndReport(BenchmarkDatabase database, IndexLayout layout)
      throws RocksDBException {
    long compactStart = System.nanoTime();
    database.compact();
    double compactSeconds = (System.nanoTime() - compactStart) / 1e9;
    System.out.println("| after full compaction | index CF | counts CF |");
    System.out.println("| --- | ---: | ---: |");
    System.out.printf(
        Locale.ROOT,
        "| SST bytes | %,d | %,d |%n",
        database.sstBytes(database.index()),
        database.sstBytes(database.counts()));
    System.out.printf(
        Locale.ROOT,
        "| keys (estimate) | %,d | %,d |%n",
        database.estimatedKeys(database.index()),
        database.estimatedKeys(database.counts()));
    System.out.printf(Locale.ROOT, "%ncompaction took %.1f s%n%n", compactSeconds);
    System.out.println(
        "| backendstat report run | ms | records scanned | over limit | >=95% | >=90% | >=85% |");
    System.out.println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (int run = 1; run <= 3; run++) {
      long reportStart = System.nanoTime();
      EntryLimitReport report = layout.entryLimitReport();
      double millis = (System.nanoTime() - reportStart) / 1e6;
      System.out.printf(
          Locale.ROOT,
          "| %d | %,.1f | %,d | %,d | %,d | %,d | %,d |%n",
          run,
          millis,
          report.keysScanned(),
          report.overLimitKeys().size(),
          report.atOrAbove95(),
          report.atOrAbove90(),
          report.atOrAbove85());
    }
    System.out.println();
  }
}
