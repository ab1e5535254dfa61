package io.rockds.benchmarks.storage;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rocksdb.RocksDBException;

/**
 * Latency of reading one index key holding {@code ids} IDs and decoding it into an ID set ({@code
 * long[]} or RoaringBitmap), for each {@link LayoutVariant}. {@code ids} above the entry limit
 * (4000) measures how fast a read learns the key is over the limit. The key sits among 1000 other
 * keys of 100 IDs each; IDs are spread at random over a 1M-entry range; the database is fully
 * compacted and the block cache warm, so this is the CPU path of a cached read.
 *
 * <pre>
 * ./mvnw -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar IndexLayoutBenchmark -f 1 -wi 2 -i 3 -w 1s -r 2s \
 *     -rf json -rff benchmarks/target/index-layout.json
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
public class IndexLayoutBenchmark {

  private static final int ID_RANGE = 1_000_000;
  private static final int NEIGHBOUR_KEYS = 1000;
  private static final int NEIGHBOUR_IDS = 100;

  @Param({"ID_LIST_VARINT", "ID_LIST_ROARING", "KEY_PER_ID", "KEY_PER_ID_COUNTED"})
  public LayoutVariant layout;

  @Param({"1", "100", "4000", "20000"})
  public int ids;

  private BenchmarkDatabase database;
  private IndexLayout index;
  private byte[] target;

  @Setup(Level.Trial)
  public void load() throws RocksDBException {
    database = BenchmarkDatabase.openTemporary(false);
    index = layout.open(database, LayoutVariant.DEFAULT_ENTRY_LIMIT);
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < NEIGHBOUR_KEYS; i++) {
      index.load(SyntheticDirectory.key("sn", "neighbour" + i), randomIds(random, NEIGHBOUR_IDS));
    }
    target = SyntheticDirectory.key("sn", "neighbour" + NEIGHBOUR_KEYS / 2 + "target");
    index.load(target, randomIds(random, ids));
    database.compact();
    if (index.read(target).size() != (ids > LayoutVariant.DEFAULT_ENTRY_LIMIT ? -1 : ids)) {
      throw new IllegalStateException(
          layout + " read back " + index.read(target).size() + " IDs, loaded " + ids);
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    database.close();
  }

  @Benchmark
  public IndexRead read() throws RocksDBException {
    return index.read(target);
  }

  private static long[] randomIds(SplittableRandom random, int count) {
    return LongStream.generate(() -> 1 + random.nextInt(ID_RANGE))
        .distinct()
        .limit(count)
        .sorted()
        .toArray();
  }
}
