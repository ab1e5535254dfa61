package io.rockds.benchmarks.storage;

import io.rockds.storage.IdSet;
import java.util.SplittableRandom;
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

/**
 * IdSet intersection and union of two sets of {@code size} IDs drawn from a space of 4 × size
 * (about a quarter overlap), and of a 10-ID set against one of {@code size} (the galloping case: a
 * selective filter ANDed with a broad one).
 *
 * <pre>
 *   java -jar benchmarks/target/benchmarks.jar IdSetBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IdSetBenchmark {
  @Param({"10", "4000", "1000000"})
  public int size;

  private IdSet a;
  private IdSet b;
  private IdSet tiny;

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(7);
    a = random(random, size, 4L * size);
    b = random(random, size, 4L * size);
    tiny = random(random, 10, 4L * size);
  }

  private static IdSet random(SplittableRandom random, int count, long space) {
    IdSet.Builder ids = new IdSet.Builder();
    while (ids.size() < count) {
      ids.add(1 + random.nextLong(space));
    }
    return ids.build();
  }

  @Benchmark
  public IdSet intersect() {
    return a.intersect(b);
  }

  @Benchmark
  public IdSet union() {
    return a.union(b);
  }

  @Benchmark
  public IdSet intersectTinyWithLarge() {
    return tiny.intersect(a);
  }
}
