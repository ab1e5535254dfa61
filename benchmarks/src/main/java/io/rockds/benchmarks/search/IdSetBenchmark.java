package io.rockds.benchmarks.search;

import io.rockds.storage.IdSet;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Intersection and union of index-record-sized ID sets: a 4000-ID set against sets of several sizes. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IdSetBenchmark {
  @Param({"10", "111", "4000"})
  int otherSize;

  IdSet large;
  IdSet other;

  @Setup
  public void setUp() {
    Random random = new Random(42);
    large = randomSet(random, 4000, 100_000);
    other = randomSet(random, otherSize, 100_000);
  }

  private static IdSet randomSet(Random random, int size, int range) {
    IdSet.Builder builder = new IdSet.Builder();
    while (builder.size() < size) {
      builder.add(random.nextInt(range));
    }
    return builder.build();
  }

  @Benchmark
  public IdSet intersect() {
    return large.intersect(other);
  }

  @Benchmark
  public IdSet union() {
    return large.union(other);
  }
}
