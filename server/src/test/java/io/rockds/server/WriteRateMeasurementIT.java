package io.rockds.server;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionPool;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
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
 * back-mdb its pages). Not part of the default suites; run with
 *
 * <pre>
 * ./mvnw -B -o -q -pl server -am verify -Dtest=WriteRateMeasurement -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=NoSuch -Dfailsafe.failIfNoSpecifiedTests=false -Dentries=100000 -Dthreads=4</pre>
 */
class WriteRateMeasurement {
  private static final int ENTRIES = Integer.getInteger("entries", 5_000);
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
      SplittableRandom random = new SplittableRandom(42);
      double mod =
          rate(
              i ->
                  pool.modify(
                      "uid=u" + random.split().nextInt(ENTRIES) + "," + PEOPLE,
                      new Modification(ModificationType.REPLACE, "description", "v" + i)));
      double delete = rate(i -> pool.delete("uid=u" + i + "," + PEOPLE));
      System.out.printf(
          "%s %d entries, %d threads: add %.0f/s, modify %.0f/s, delete %.0f/s%n",
          name, ENTRIES, THREADS, add, mod, delete);
    }
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
