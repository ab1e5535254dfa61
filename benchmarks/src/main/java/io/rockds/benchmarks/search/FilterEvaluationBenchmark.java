package io.rockds.benchmarks.search;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import com.unboundid.ldif.LDIFException;
import io.rockds.storage.matching.FilterEvaluator;
import io.rockds.storage.matching.PreparedFilter;
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
 * Phase 2: one filter against one inetOrgPerson entry, ours against UnboundID's
 * Filter.matchesEntry: {@code rockds} as one-shot callers do (the filter prepared for each call),
 * {@code prepared} as a search does for each candidate (the filter prepared once per search).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FilterEvaluationBenchmark {
  @Param({"(uid=user.19)", "(cn=*den*)", "(&(objectClass=person)(mail=user.19*))", "(sn>=M)"})
  String filterText;

  Filter filter;
  Entry entry;
  Schema schema;
  FilterEvaluator evaluator;
  PreparedFilter prepared;

  @Setup
  public void setUp() throws LDAPException, LDIFException {
    schema = Schema.getDefaultStandardSchema();
    evaluator = new FilterEvaluator(schema);
    filter = Filter.create(filterText);
    prepared = evaluator.prepare(filter);
    entry =
        new Entry(
            "dn: uid=user.19,ou=People,dc=example,dc=com",
            "objectClass: top",
            "objectClass: person",
            "objectClass: organizationalPerson",
            "objectClass: inetOrgPerson",
            "uid: user.19",
            "cn: Aiden Walden",
            "sn: Walden",
            "givenName: Aiden",
            "mail: user.19@example.com",
            "telephoneNumber: +1 408 555 0019",
            "employeeNumber: 19",
            "description: This is the description for Aiden Walden.");
  }

  @Benchmark
  public boolean rockds() {
    return evaluator.matches(filter, entry);
  }

  @Benchmark
  public boolean prepared() {
    return prepared.matches(entry);
  }

  @Benchmark
  public boolean unboundId() throws LDAPException {
    return filter.matchesEntry(entry, schema);
  }
}
