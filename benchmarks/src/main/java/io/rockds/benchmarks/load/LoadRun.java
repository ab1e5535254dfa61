package io.rockds.benchmarks.load;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Runs one workload against one server for a bounded time and operation count, then prints one
 * tab-separated line: {@code workload threads ops ops/s mean_us p99_us server_cpu_us_per_op
 * errors}.
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar io.rockds.benchmarks.load.LoadRun \
 *     --port 1389 --bindDn "cn=Directory Manager" --password password --users 100000 \
 *     --workload search-uid-1attr --threads 8 --warmup 10 --duration 30 [--serverPid PID]
 * </pre>
 *
 * Every thread has its own connection (and one more for binds in the auth workload). The warm-up
 * interval is discarded; latency is recorded in an HdrHistogram (1 µs to 60 s, 3 digits). With
 * {@code --serverPid}, the server's user+system CPU time over the measured interval (from {@code
 * /proc/<pid>/stat}) is divided by the operations completed: the figure that shows how close a
 * server is to the machine's limit when the load generator shares the cores.
 */
public final class LoadRun {
  private LoadRun() {}

  public static void main(String[] args) throws Exception {
    String host = "127.0.0.1";
    int port = 1389;
    String bindDn = "cn=Directory Manager";
    String password = "password";
    String base = "dc=example,dc=com";
    String userPassword = "welcome123";
    int users = 10_000;
    int threads = 8;
    int warmup = 5;
    int duration = 20;
    long maxOps = 50_000_000;
    long serverPid = -1;
    Workload workload = Workload.SEARCH_UID_1;
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--host" -> host = v;
        case "--port" -> port = Integer.parseInt(v);
        case "--bindDn" -> bindDn = v;
        case "--password" -> password = v;
        case "--base" -> base = v;
        case "--userPassword" -> userPassword = v;
        case "--users" -> users = Integer.parseInt(v);
        case "--threads" -> threads = Integer.parseInt(v);
        case "--warmup" -> warmup = Integer.parseInt(v);
        case "--duration" -> duration = Integer.parseInt(v);
        case "--maxOps" -> maxOps = Long.parseLong(v);
        case "--serverPid" -> serverPid = Long.parseLong(v);
        case "--workload" -> workload = Workload.byLabel(v);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
      i++;
    }
    if (!host.startsWith("127.") && !host.equals("localhost") && !host.equals("::1")) {
      throw new IllegalArgumentException("--host: " + host + " (expected: a loopback address)");
    }
    System.out.println(
        run(
            host,
            port,
            bindDn,
            password,
            base,
            userPassword,
            users,
            threads,
            warmup,
            duration,
            maxOps,
            serverPid,
            workload));
  }

  static String run(
      String host,
      int port,
      String bindDn,
      String password,
      String base,
      String userPassword,
      int users,
      int threads,
      int warmupSeconds,
      int durationSeconds,
      long maxOps,
      long serverPid,
      Workload workload)
      throws Exception {
    Recorder recorder = new Recorder(1, TimeUnit.SECONDS.toNanos(60), 3);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicBoolean measuring = new AtomicBoolean();
    AtomicLong ops = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    CountDownLatch done = new CountDownLatch(threads);
    List<LDAPConnection> connections = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      LDAPConnection c = new LDAPConnection(host, port, bindDn, password);
      LDAPConnection b = new LDAPConnection(host, port);
      connections.add(c);
      connections.add(b);
      Workload.Context context = new Workload.Context(c, b, base, users, userPassword, t);
      Thread thread =
          new Thread(
              () -> {
                try {
                  while (!stop.get()) {
                    long start = System.nanoTime();
                    try {
                      workload.run(context);
                    } catch (LDAPException e) {
                      if (measuring.get()) {
                        errors.incrementAndGet();
                      }
                      continue;
                    }
                    if (measuring.get()) {
                      recorder.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
                      if (ops.incrementAndGet() >= maxOps) {
                        stop.set(true);
                      }
                    }
                  }
                } finally {
                  done.countDown();
                }
              },
              "load-" + t);
      thread.setDaemon(true);
      thread.start();
    }
    Thread.sleep(TimeUnit.SECONDS.toMillis(warmupSeconds));
    recorder.reset();
    long cpuBefore = cpuMicros(serverPid);
    long begin = System.nanoTime();
    measuring.set(true);
    long deadline = begin + TimeUnit.SECONDS.toNanos(durationSeconds);
    while (!stop.get() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    measuring.set(false);
    long elapsed = System.nanoTime() - begin;
    long cpuAfter = cpuMicros(serverPid);
    stop.set(true);
    done.await(30, TimeUnit.SECONDS);
    connections.forEach(LDAPConnection::close);
    Histogram h = recorder.getIntervalHistogram();
    long n = ops.get();
    double perSecond = n / (elapsed / 1e9);
    String cpuPerOp =
        serverPid > 0 && n > 0
            ? String.format(Locale.ROOT, "%.1f", (cpuAfter - cpuBefore) / (double) n)
            : "-";
    return String.format(
        Locale.ROOT,
        "%s\t%d\t%d\t%.0f\t%.0f\t%d\t%s\t%d",
        workload.label,
        threads,
        n,
        perSecond,
        h.getMean(),
        h.getValueAtPercentile(99),
        cpuPerOp,
        errors.get());
  }

  /** User + system CPU time of a process in microseconds, or 0 when unknown. */
  static long cpuMicros(long pid) throws IOException {
    if (pid <= 0) {
      return 0;
    }
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    return ticks * 1_000_000L / 100;
  }
}
