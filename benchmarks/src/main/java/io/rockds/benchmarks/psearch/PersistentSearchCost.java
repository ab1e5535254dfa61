package io.rockds.benchmarks.psearch;

import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import com.unboundid.ldap.sdk.controls.PersistentSearchRequestControl;
import io.rockds.layout.Instance;
import io.rockds.server.DirectoryServer;
import io.rockds.server.InstanceSetup;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cost of a change with 0, 1, 10 and 100 persistent searches listening: one client modifies one
 * entry {@code --changes} times in a row (WAL synced, as in production), every persistent search
 * matches it, and the run ends once every notification has arrived. Prints, per listener count, the
 * server threads' CPU time per modify (workers, event loops, psearch delivery; not the JIT or GC,
 * which ThreadMXBean does not see) and the modify latency the writer saw. Client and server share
 * one process on loopback: the client's connection readers are left out of the server figure.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.rockds.benchmarks.psearch.PersistentSearchCost \
 *     --changes 1000 --listeners 0,1,10,100,0
 * </pre>
 */
public final class PersistentSearchCost {
  private static final String BASE = "dc=example,dc=com";
  private static final String PASSWORD = "bench-secret";
  private static final String TARGET = "uid=watched,ou=People," + BASE;
  private static final long WAIT_NANOS = TimeUnit.MINUTES.toNanos(5);

  private PersistentSearchCost() {}

  public static void main(String[] args) throws Exception {
    int changes = Integer.parseInt(option(args, "--changes", "2000"));
    String[] listenerCounts = option(args, "--listeners", "0,1,10,100").split(",");
    Path dir = Files.createTempDirectory("psearch-cost");
    Instance instance = new Instance(dir.resolve("instance"));
    InstanceSetup.create(
        instance,
        InstanceSetup.loopback(new DN(BASE), 0, 0),
        PASSWORD,
        List.of(
            new Entry("dn: " + BASE, "objectClass: domain", "dc: example"),
            new Entry("dn: ou=People," + BASE, "objectClass: organizationalUnit", "ou: People"),
            new Entry(
                "dn: " + TARGET,
                "objectClass: inetOrgPerson",
                "uid: watched",
                "cn: watched",
                "sn: watched")));
    DirectoryServer server = DirectoryServer.start(instance);
    try (LDAPConnection writer = root(server)) {
      writer.modify(
          "cn=config",
          new Modification(
              ModificationType.REPLACE, "ds-cfg-max-psearches-per-connection", "1000"));
      System.out.println("listeners  modifies  server CPU us/modify  mean modify latency us");
      modify(writer, changes); // warm-up
      for (String count : listenerCounts) {
        run(server, writer, Integer.parseInt(count.trim()), changes);
      }
    } finally {
      server.close();
      try (var paths = Files.walk(dir)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static void run(DirectoryServer server, LDAPConnection writer, int listeners, int changes)
      throws Exception {
    AtomicLong received = new AtomicLong();
    List<LDAPConnection> watchers = new ArrayList<>();
    try {
      for (int i = 0; i < listeners; i++) {
        if (i % 10 == 0) {
          watchers.add(root(server));
        }
        SearchRequest request =
            new SearchRequest(
                counting(received), BASE, SearchScope.SUB, "(objectClass=inetOrgPerson)", "cn");
        request.addControl(
            new PersistentSearchRequestControl(
                EnumSet.allOf(PersistentSearchChangeType.class), true, true, true));
        watchers.get(watchers.size() - 1).asyncSearch(request);
      }
      awaitRegistered(server, listeners);
      long cpuBefore = serverCpuNanos();
      long start = System.nanoTime();
      modify(writer, changes);
      long writing = System.nanoTime() - start;
      long expected = (long) listeners * changes;
      long deadline = System.nanoTime() + WAIT_NANOS;
      while (received.get() < expected && System.nanoTime() < deadline) {
        TimeUnit.MILLISECONDS.sleep(1); // polling the count; bounded by the deadline
      }
      long cpu = serverCpuNanos() - cpuBefore;
      System.out.printf(
          Locale.ROOT,
          "%9d  %8d  %20.1f  %22.1f%s%n",
          listeners,
          changes,
          cpu / 1000.0 / changes,
          writing / 1000.0 / changes,
          received.get() < expected ? "  (missing " + (expected - received.get()) + ")" : "");
    } finally {
      watchers.forEach(LDAPConnection::close);
      awaitRegistered(server, 0);
    }
  }

  private static void modify(LDAPConnection writer, int changes) throws Exception {
    for (int i = 0; i < changes; i++) {
      writer.modify(TARGET, new Modification(ModificationType.REPLACE, "description", "v" + i));
    }
  }

  private static AsyncSearchResultListener counting(AtomicLong received) {
    return new AsyncSearchResultListener() {
      private static final long serialVersionUID = 1L;

      @Override
      public void searchEntryReturned(SearchResultEntry entry) {
        received.incrementAndGet();
      }

      @Override
      public void searchReferenceReturned(com.unboundid.ldap.sdk.SearchResultReference reference) {}

      @Override
      public void searchResultReceived(
          com.unboundid.ldap.sdk.AsyncRequestID requestId,
          com.unboundid.ldap.sdk.SearchResult result) {}
    };
  }

  private static void awaitRegistered(DirectoryServer server, int count) throws Exception {
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (server.metrics().persistentSearches() != count) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("persistent searches never reached " + count);
      }
      TimeUnit.MILLISECONDS.sleep(1);
    }
  }

  /**
   * CPU time of every live thread but this one, the client SDK's connection readers and the JIT
   * compiler (whose warm-up would drown the figures of a short run).
   */
  private static long serverCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long self = Thread.currentThread().getId();
    long total = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info == null
          || info.getThreadId() == self
          || info.getThreadName().startsWith("Connection reader")
          || info.getThreadName().contains("CompilerThread")) {
        continue;
      }
      total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
    }
    return total;
  }

  private static LDAPConnection root(DirectoryServer server) throws Exception {
    return new LDAPConnection("127.0.0.1", server.ldapPort(), "cn=Directory Manager", PASSWORD);
  }

  private static String option(String[] args, String name, String fallback) {
    for (int i = 0; i < args.length - 1; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return fallback;
  }
}
