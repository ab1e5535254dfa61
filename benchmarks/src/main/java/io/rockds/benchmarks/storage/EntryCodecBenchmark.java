package io.rockds.benchmarks.storage;

import com.unboundid.ldap.sdk.Entry;
import io.rockds.storage.Backend;
import io.rockds.storage.Id2Entry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * id2entry encoding and decoding of an OID-template entry (22 attributes, 1500-byte photo).
 *
 * <pre>
 *   java -jar benchmarks/target/benchmarks.jar EntryCodecBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EntryCodecBenchmark {
  private Path dir;
  private Backend backend;
  private Id2Entry id2entry;
  private Entry entry;
  private byte[] encoded;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("rockds-codec-bench-");
    backend = StorageRuns.open(dir.resolve("db"), false);
    id2entry = backend.containers().get(0).id2entry();
    entry = OidTemplate.user(42);
    encoded = id2entry.encodeNew(entry).record();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    backend.close();
    StorageRuns.delete(dir);
  }

  @Benchmark
  public byte[] encode() throws Exception {
    return id2entry.encodeNew(entry).record();
  }

  @Benchmark
  public Entry decode() {
    return id2entry.decode(42, encoded, null);
  }
}
