package io.rockds.benchmarks.storage;

import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.importer.ImportResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Does the cost of an add grow with the directory? Loads a directory of {@code small} and of {@code
 * large} OID-template entries (bulk import), then times {@code sample} ordinary adds of new entries
 * sharing the same values (objectClass, cn, sn, mail domain: keys far over the entry limit) on
 * each; prints both rates and their ratio, which should stay near 1. Rates are per CPU-second
 * (wall-clock rates are printed too) so that a busy machine does not distort the ratio, in two
 * ways: the adding threads' own CPU (the write path: key reads, record updates, commit) and the
 * whole process's, which adds RocksDB's background flushes and compactions.
 *
 * <pre>
 *   ./mvnw -B -o -q -pl benchmarks -am package -DskipTests
 *   java -cp benchmarks/target/benchmarks.jar io.rockds.benchmarks.storage.AddRateRun 10000 1000000 10000 [threads] [sync]
 * </pre>
 */
public final class AddRateRun {
  private AddRateRun() {}

  public static void main(String[] args) throws Exception {
    long small = args.length > 0 ? Long.parseLong(args[0]) : 10_000;
    long large = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
    int sample = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    boolean sync = args.length > 4 && Boolean.parseBoolean(args[4]);
    double[] smallRates = measure(small, sample, threads, sync);
    double[] largeRates = measure(large, sample, threads, sync);
    String[] kinds = {"adding threads' CPU", "process CPU"};
    for (int k = 0; k < kinds.length; k++) {
      System.out.printf(
          "adds per CPU-second (%s): %,.0f at %,d entries, %,.0f at %,d entries: ratio %.2f"
              + " (threads %d, sync %b)%n",
          kinds[k],
          smallRates[k],
          small,
          largeRates[k],
          large,
          largeRates[k] / smallRates[k],
          threads,
          sync);
    }
  }

  /** Adds per CPU-second of the adding threads, and of the whole process. */
  private static double[] measure(long size, int sample, int threads, boolean sync)
      throws Exception {
    Path dir = Files.createTempDirectory("rockds-add-run-");
    try {
      ImportResult loaded =
          ImportRun.load(dir.resolve("db"), size, Runtime.getRuntime().availableProcessors());
      System.out.printf("loaded %,d entries: %s%n", size, loaded);
      try (Backend backend = StorageRuns.open(dir.resolve("db"), sync)) {
        EntryContainer c = backend.containerFor(new com.unboundid.ldap.sdk.DN(OidTemplate.SUFFIX));
        // Warm up on entries outside the timed range, then time the sample.
        addRange(c, size + 1, size + sample / 5, threads);
        long start = System.nanoTime();
        double cpu = StorageRuns.cpuSeconds();
        double foregroundCpu =
            addRange(c, size + sample / 5 + 1, size + sample / 5 + sample, threads);
        double rate = sample / ((System.nanoTime() - start) / 1e9);
        double perForegroundSecond = sample / foregroundCpu;
        double perCpuSecond = sample / (StorageRuns.cpuSeconds() - cpu);
        System.out.printf(
            "  %,d adds on %,d entries: %,.0f/s wall, %,.0f per adding-thread CPU-second, %,.0f per"
                + " process CPU-second%n",
            sample, size, rate, perForegroundSecond, perCpuSecond);
        return new double[] {perForegroundSecond, perCpuSecond};
      }
    } finally {
      StorageRuns.delete(dir);
    }
  }

  /** Adds entries {@code first..last}; returns the CPU seconds the adding threads used. */
  private static double addRange(EntryContainer c, long first, long last, int threads)
      throws Exception {
    AtomicLong next = new AtomicLong(first);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    try {
      List<Future<Long>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  long before = cpu.getCurrentThreadCpuTime();
                  for (long n = next.getAndIncrement(); n <= last; n = next.getAndIncrement()) {
                    c.add(OidTemplate.user(n));
                  }
                  return cpu.getCurrentThreadCpuTime() - before;
                }));
      }
      long nanos = 0;
      for (Future<Long> f : done) {
        nanos += f.get();
      }
      return nanos / 1e9;
    } finally {
      pool.shutdown();
    }
  }
}
