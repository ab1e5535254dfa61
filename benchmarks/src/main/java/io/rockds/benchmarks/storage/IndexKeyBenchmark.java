package io.rockds.benchmarks.storage;

import com.unboundid.ldap.sdk.Entry;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexKey;
import io.rockds.storage.IndexType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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

/**
 * Index key generation for one OID-template entry: one index, or all default indexes (what an add
 * computes).
 *
 * <pre>
 *   java -jar benchmarks/target/benchmarks.jar IndexKeyBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IndexKeyBenchmark {
  @Param({
    "cn:EQUALITY",
    "cn:SUBSTRING",
    "mail:SUBSTRING",
    "objectClass:EQUALITY",
    "telephoneNumber:SUBSTRING"
  })
  public String index;

  private Path dir;
  private Backend backend;
  private EntryContainer container;
  private AttributeIndex selected;
  private Entry entry;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("rockds-keys-bench-");
    backend = StorageRuns.open(dir.resolve("db"), false);
    container = backend.containers().get(0);
    String[] parts = index.split(":");
    selected = container.index(parts[0], IndexType.valueOf(parts[1]));
    entry = OidTemplate.user(42);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    backend.close();
    StorageRuns.delete(dir);
  }

  @Benchmark
  public Set<IndexKey> oneIndex() {
    return selected.keysOf(entry);
  }

  @Benchmark
  public int allDefaultIndexes() {
    int keys = 0;
    for (AttributeIndex i : container.indexes()) {
      keys += i.keysOf(entry).size();
    }
    return keys;
  }
}
