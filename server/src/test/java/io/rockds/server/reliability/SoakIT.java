package io.rockds.server.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.DirectoryServer;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Soak: 64 connections run a mixed workload (search, bind, modify, add, delete, compare) against an
 * in-process server; every operation must succeed, the heap after a full collection at the end must
 * be close to the one a third of the way in (after warm-up), and no file descriptor may be gained
 * in between.
 *
 * <p>Short mode: 45 s. Long mode: {@code -Dreliability.soakSeconds=3600}.
 */
class SoakIT {
  private static final int CONNECTIONS = 64;
  private static final int PEOPLE = 2_000;
  private static final String PEOPLE_DN = "ou=People," + TestServer.BASE;

  @TempDir Path dir;

  @Test
  void mixedWorkloadAtSixtyFourConnectionsRunsWithoutErrorsOrGrowth() throws Exception {
    long seconds = Long.getLong("reliability.soakSeconds", 45);
    try (DirectoryServer server =
        DirectoryServer.start(PopulatedInstance.create(dir.resolve("instance"), PEOPLE, 100))) {
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong operations = new AtomicLong();
      List<String> errors = Collections.synchronizedList(new ArrayList<>());
      ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS);
      List<Future<?>> workers = new ArrayList<>();
      try {
        for (int w = 0; w < CONNECTIONS; w++) {
          Worker worker = new Worker(w, server.ldapPort(), stop, operations, errors);
          workers.add(pool.submit(worker::run));
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds) / 3);
        long heapWarm = ProcessResources.heapAfterGc();
        long fdsWarm = ProcessResources.openFileDescriptors();
        long opsWarm = operations.get();
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds) * 2 / 3);
        long heapEnd = ProcessResources.heapAfterGc();
        long fdsEnd = ProcessResources.openFileDescriptors();
        stop.set(true);
        for (Future<?> worker : workers) {
          worker.get(2, TimeUnit.MINUTES);
        }
        System.out.printf(
            "soak: %d s, %d connections, %d operations (%d after warm-up), heap %d MB -> %d MB, "
                + "fds %d -> %d, %d errors%n",
            seconds,
            CONNECTIONS,
            operations.get(),
            operations.get() - opsWarm,
            heapWarm >> 20,
            heapEnd >> 20,
            fdsWarm,
            fdsEnd,
            errors.size());
        assertThat(errors).as("unexpected errors").isEmpty();
        assertThat(operations.get() - opsWarm).as("operations after warm-up").isPositive();
        assertThat(heapEnd)
            .as("heap after GC at the end vs. after warm-up")
            .isLessThan(heapWarm + Math.max(64L << 20, heapWarm / 2));
        assertThat(fdsEnd)
            .as("file descriptors at the end vs. after warm-up")
            .isLessThanOrEqualTo(fdsWarm + 16);
      } finally {
        stop.set(true);
        pool.shutdownNow();
        pool.awaitTermination(1, TimeUnit.MINUTES);
      }
    }
  }

  /** One connection looping over the operation mix until told to stop. */
  private record Worker(
      int id, int port, AtomicBoolean stop, AtomicLong operations, List<String> errors) {
    void run() {
      Random random = new Random(id);
      ArrayDeque<String> added = new ArrayDeque<>();
      long next = 0;
      try (LDAPConnection c = root()) {
        while (!stop.get()) {
          int person = random.nextInt(PEOPLE);
          String dn = "uid=user." + person + "," + PEOPLE_DN;
          try {
            switch (random.nextInt(6)) {
              case 0 ->
                  check(
                      c.search(PEOPLE_DN, SearchScope.ONE, "(uid=user." + person + ")", "cn")
                              .getEntryCount()
                          == 1,
                      "search found " + dn);
              case 1 -> {
                c.bind(dn, PopulatedInstance.PASSWORD);
                c.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
              }
              case 2 ->
                  c.modify(
                      "uid=user."
                          + (id * (PEOPLE / CONNECTIONS) + random.nextInt(PEOPLE / CONNECTIONS))
                          + ","
                          + PEOPLE_DN,
                      new Modification(ModificationType.REPLACE, "description", "v" + next++));
              case 3 -> {
                String uid = "soak-" + id + "-" + next++;
                String newDn = "uid=" + uid + "," + PEOPLE_DN;
                c.add(
                    new Entry(
                        newDn,
                        new Attribute("objectClass", "inetOrgPerson"),
                        new Attribute("uid", uid),
                        new Attribute("cn", "soak"),
                        new Attribute("sn", "soak")));
                added.add(newDn);
              }
              case 4 -> {
                if (!added.isEmpty()) {
                  c.delete(added.poll());
                }
              }
              default ->
                  check(c.compare(dn, "uid", "user." + person).compareMatched(), "compare " + dn);
            }
            operations.incrementAndGet();
          } catch (LDAPException e) {
            errors.add("worker " + id + ": " + e.getMessage());
            if (errors.size() > 100) {
              return;
            }
          }
        }
      } catch (LDAPException e) {
        errors.add("worker " + id + " connect: " + e.getMessage());
      }
    }

    private LDAPConnection root() throws LDAPException {
      return new LDAPConnection("127.0.0.1", port, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
    }

    private void check(boolean ok, String what) {
      if (!ok) {
        errors.add("worker " + id + ": wrong answer: " + what);
      }
    }
  }
}
