package io.rockds.benchmarks.search;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.Backend;
import io.rockds.storage.BackendSettings;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexSpec;
import io.rockds.storage.IndexType;
import io.rockds.storage.search.SearchCandidates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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

/** Phase 1 (index reads, intersections, scope) over 10,000 makeldif-style entries in RocksDB. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CandidateBuildingBenchmark {
  private static final String BASE = "dc=example,dc=com";
  private static final String[] FIRST = {
    "Aiden", "Bob", "Carol", "Denice", "Eve", "Frank", "Gus", "Hayden", "Ida"
  };
  private static final String[] LAST = {
    "Smith", "Lee", "Garden", "Brown", "Jones", "Nguyen", "Walden"
  };

  @Param({
    "(uid=user.5019)",
    "(&(cn=*Den*)(mail=user.19*))",
    "(|(cn=*Denice*)(uid=user.19))",
    "(&(sn=Smith)(givenName=Bob))",
    "(mail=user.1*)"
  })
  String filterText;

  Path dir;
  Backend backend;
  EntryContainer container;
  Schema schema;
  DN base;
  Filter filter;

  @Setup(Level.Trial)
  public void setUp() throws IOException, LDAPException {
    dir = Files.createTempDirectory("rockds-candidates");
    schema = Schema.getDefaultStandardSchema();
    base = new DN(BASE);
    backend =
        Backend.open(
            BackendSettings.defaults("userRoot", dir, base)
                .withSyncWrites(false)
                .withIndexes(
                    List.of(
                        IndexSpec.of("objectClass", IndexType.EQUALITY),
                        IndexSpec.of("uid", IndexType.EQUALITY),
                        IndexSpec.of("cn", IndexType.EQUALITY, IndexType.SUBSTRING),
                        IndexSpec.of("sn", IndexType.EQUALITY, IndexType.SUBSTRING),
                        IndexSpec.of("givenName", IndexType.EQUALITY, IndexType.SUBSTRING),
                        IndexSpec.of("mail", IndexType.EQUALITY, IndexType.SUBSTRING))),
            schema);
    container = backend.containerFor(base);
    container.add(
        new Entry(
            BASE, new Attribute("objectClass", "top", "domain"), new Attribute("dc", "example")));
    container.add(
        new Entry(
            "ou=People," + BASE,
            new Attribute("objectClass", "top", "organizationalUnit"),
            new Attribute("ou", "People")));
    for (int i = 0; i < 10_000; i++) {
      String first = FIRST[i % FIRST.length];
      String last = LAST[(i / FIRST.length) % LAST.length];
      container.add(
          new Entry(
              "uid=user." + i + ",ou=People," + BASE,
              new Attribute(
                  "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
              new Attribute("uid", "user." + i),
              new Attribute("cn", first + " " + last),
              new Attribute("sn", last),
              new Attribute("givenName", first),
              new Attribute("mail", "user." + i + "@example.com")));
    }
    filter = Filter.create(filterText);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    backend.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public SearchCandidates.Result candidates() throws LDAPException {
    return SearchCandidates.find(container, schema, base, SearchScope.SUB, filter, 0);
  }
}
