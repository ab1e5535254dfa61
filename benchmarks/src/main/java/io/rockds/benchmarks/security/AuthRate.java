package io.rockds.benchmarks.security;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.layout.Instance;
import io.rockds.server.DirectoryServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * authrate: each thread searches a random {@code uid=user.<n>} (bound as the root DN, as an
 * application would with a service account), then binds as the DN found with {@code password.<n>}
 * on a second connection. Prints authentications per second and latency percentiles of the search +
 * bind pair. Against slapd, pass its port and root DN.
 *
 * <pre>
 * # RockDS, started in-process on an instance made by AuthRateData:
 * java -cp benchmarks/target/benchmarks.jar io.rockds.benchmarks.security.AuthRate \
 *     --instance /tmp/authrate-ssha512 --users 100000 --threads 8 --seconds 60
 * # any server:
 * java -cp ... AuthRate --port 1389 --rootDn "cn=admin,dc=example,dc=com" --rootPassword secret \
 *     --users 100000 --threads 32 --seconds 60
 * </pre>
 */
public final class AuthRate {
  /** Latency histogram: bucket i counts pairs taking [2^(i/4), 2^((i+1)/4)) microseconds. */
  private static final int BUCKETS = 160;

  private AuthRate() {}

  public static void main(String[] args) throws Exception {
    String instanceDir = option(args, "--instance", null);
    int users = Integer.parseInt(option(args, "--users", "100000"));
    int threads = Integer.parseInt(option(args, "--threads", "8"));
    int seconds = Integer.parseInt(option(args, "--seconds", "30"));
    String rootDn = option(args, "--rootDn", "cn=Directory Manager");
    String rootPassword = option(args, "--rootPassword", AuthRateData.ROOT_PASSWORD);
    String base = option(args, "--base", AuthRateData.PEOPLE);
    DirectoryServer server =
        instanceDir == null ? null : DirectoryServer.start(new Instance(Path.of(instanceDir)));
    int port =
        server != null ? server.ldapPort() : Integer.parseInt(option(args, "--port", "1389"));
    try {
      run(port, rootDn, rootPassword, base, users, threads, seconds);
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  private static void run(
      int port,
      String rootDn,
      String rootPassword,
      String base,
      int users,
      int threads,
      int seconds)
      throws Exception {
    AtomicLongArray histogram = new AtomicLongArray(BUCKETS);
    AtomicLong failures = new AtomicLong();
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread worker =
          new Thread(
              () -> {
                try (LDAPConnection search =
                        new LDAPConnection("127.0.0.1", port, rootDn, rootPassword);
                    LDAPConnection bind = new LDAPConnection("127.0.0.1", port)) {
                  while (System.nanoTime() < deadline) {
                    int n = ThreadLocalRandom.current().nextInt(users);
                    long start = System.nanoTime();
                    try {
                      SearchResultEntry user =
                          search.searchForEntry(
                              base, SearchScope.SUB, "(uid=user." + n + ")", "1.1");
                      if (user == null) {
                        failures.incrementAndGet();
                        continue;
                      }
                      bind.bind(user.getDN(), "password." + n);
                      histogram.incrementAndGet(bucket((System.nanoTime() - start) / 1000));
                    } catch (LDAPException e) {
                      failures.incrementAndGet();
                    }
                  }
                } catch (LDAPException e) {
                  throw new IllegalStateException(
                      "cannot connect to 127.0.0.1:" + port + ": " + e.getMessage(), e);
                }
              },
              "authrate-" + t);
      worker.start();
      workers.add(worker);
    }
    for (Thread w : workers) {
      w.join();
    }
    report(histogram, failures.get(), threads, seconds);
  }

  private static int bucket(long micros) {
    int b = (int) Math.floor(4 * Math.log(Math.max(1, micros)) / Math.log(2));
    return Math.min(BUCKETS - 1, b);
  }

  private static void report(AtomicLongArray histogram, long failures, int threads, int seconds) {
    long total = 0;
    for (int i = 0; i < BUCKETS; i++) {
      total += histogram.get(i);
    }
    System.out.printf(
        "threads=%d seconds=%d authentications=%d (%.0f/s) failures=%d p50=%s p99=%s p99.9=%s%n",
        threads,
        seconds,
        total,
        (double) total / seconds,
        failures,
        percentile(histogram, total, 0.50),
        percentile(histogram, total, 0.99),
        percentile(histogram, total, 0.999));
  }

  private static String percentile(AtomicLongArray histogram, long total, double p) {
    long target = (long) Math.ceil(total * p);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += histogram.get(i);
      if (seen >= target && total > 0) {
        return String.format("%.2fms", Math.pow(2, (i + 1) / 4.0) / 1000);
      }
    }
    return "-";
  }

  private static String option(String[] args, String name, String defaultValue) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return defaultValue;
  }
}
