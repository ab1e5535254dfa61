package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.BASE;
import static io.rockds.storage.StorageFixtures.addTree;
import static io.rockds.storage.StorageFixtures.person;
import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.storage.maintenance.IndexVerifier;
import io.rockds.storage.maintenance.VerifyReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent writers never lose an index update, under or over the entry limit. */
class ConcurrentWritesTest {
  private static final int THREADS = 32;
  private static final int PER_THREAD = 150;
  private static final int LIMIT = 500;

  @TempDir Path dir;

  /**
   * 4 surnames every thread shares (608 entries each: over the limit) and 40 that stay under it.
   */
  private static String surname(int i) {
    return i % 2 == 0 ? "Shared" + (i % 8) : "Small" + (i % 80);
  }

  private static long countOf(String surname) {
    return java.util.stream.IntStream.range(0, PER_THREAD)
        .filter(i -> surname(i).equals(surname))
        .count();
  }

  @Test
  void thirtyTwoThreadsAddingEntriesThatShareValuesLoseNoId() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), LIMIT)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < PER_THREAD; i++) {
                    c.add(person((long) thread * PER_THREAD + i, surname(i)));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();

      int total = THREADS * PER_THREAD;
      assertThat(c.entryCount()).isEqualTo(total + 2);
      VerifyReport report = new IndexVerifier(c).verifyAll();
      assertThat(report.mismatches()).isEmpty();
      assertThat(report.entriesChecked()).isEqualTo(total + 2);
      AttributeIndex sn = c.index("sn", IndexType.EQUALITY);
      assertThat(c.state().overLimitCount(sn.name(), "shared0".getBytes(StandardCharsets.UTF_8)))
          .isEqualTo(THREADS * countOf("Shared0"));
      assertThat(sn.read("small1".getBytes(StandardCharsets.UTF_8)).size())
          .isEqualTo(THREADS * countOf("Small1"));
      assertThat(
              c.state()
                  .overLimitCount(
                      "objectClass.objectIdentifierMatch",
                      "person".getBytes(StandardCharsets.UTF_8)))
          .isEqualTo(total);
    }
  }
}
