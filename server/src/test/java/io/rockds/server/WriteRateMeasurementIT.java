package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionPool;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchScope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Add rate, modrate (replace one attribute of a random entry) and delete rate, RockDS and slapd in
 * the same run with the same client, both writing synchronously (RockDS syncs its WAL per commit,
 * back-mdb its pages). The default suite runs it small (500 entries) for its assertions: after each
 * phase both servers hold exactly what the phase wrote. For the figures in benchmarks/RESULTS.md
 * run
 *
 * <pre>
 * ./mvnw -B -o -q -pl server -am verify -Dtest=NoSuch -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=WriteRateMeasurementIT -Dfailsafe.failIfNoSpecifiedTests=false -Dentries=5000 -Dthreads=4
 * </pre>
 */
class WriteRateMeasurementIT {
  private static final int ENTRIES = Integer.getInteger("entries", 500);
  private static final int THREADS = Integer.getInteger("threads", 4);
  private static final String PEOPLE = "ou=People," + TestServer.BASE;

  @TempDir Path dir;

  @Test
  void rockdsAndSlapd() throws Exception {
    try (Slapd slapd = Slapd.start(dir.resolve("slapd"), TestServer.ROOT_PASSWORD);
        TestServer rockds = TestServer.start(dir.resolve("rockds"), TestServer.baseEntries())) {
      try (LDAPConnection c = slapd.rootConnection()) {
        for (Entry e : TestServer.baseEntries()) {
          c.add(e);
        }
      }
      measure("slapd ", new LDAPConnectionPool(slapd.rootConnection(), THREADS));
      measure("RockDS", new LDAPConnectionPool(rockds.rootConnection(), THREADS));
    }
  }

  private static void measure(String name, LDAPConnectionPool pool) throws Exception {
    try (pool) {
      double add =
          rate(
              i ->
                  pool.add(
                      new Entry(
                          "dn: uid=u" + i + "," + PEOPLE,
                          "objectClass: inetOrgPerson",
                          "uid: u" + i,
                          "cn: user " + i,
                          "sn: " + i,
                          "mail: u" + i + "@example.com")));
      assertThat(people(pool, "(uid=u*)")).isEqualTo(ENTRIES);
      SplittableRandom random = new SplittableRandom(42);
      double mod =
          rate(
              i ->
                  pool.modify(
                      "uid=u" + random.split().nextInt(ENTRIES) + "," + PEOPLE,
                      new Modification(ModificationType.REPLACE, "description", "v" + i)));
      assertThat(people(pool, "(description=v*)")).isPositive();
      double delete = rate(i -> pool.delete("uid=u" + i + "," + PEOPLE));
      assertThat(people(pool, "(uid=u*)")).isZero();
      System.out.printf(
          "%s %d entries, %d threads: add %.0f/s, modify %.0f/s, delete %.0f/s%n",
          name, ENTRIES, THREADS, add, mod, delete);
    }
  }

  /** How many entries below ou=People match {@code filter}. */
  private static int people(LDAPConnectionPool pool, String filter) throws Exception {
    return pool.search(PEOPLE, SearchScope.ONE, filter, "1.1").getEntryCount();
  }

  private interface Operation {
    void run(int i) throws Exception;
  }

  /** Runs operation 0..ENTRIES-1 spread over THREADS threads; operations per second. */
  private static double rate(Operation operation) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try {
      long start = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int first = t;
        done.add(
            threads.submit(
                () -> {
                  for (int i = first; i < ENTRIES; i += THREADS) {
                    operation.run(i);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      return ENTRIES / ((System.nanoTime() - start) / 1e9);
    } finally {
      threads.shutdown();
    }
  }
}
