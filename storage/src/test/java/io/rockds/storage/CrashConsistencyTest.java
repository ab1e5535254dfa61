package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.BASE;
import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.storage.maintenance.IndexVerifier;
import io.rockds.storage.maintenance.VerifyReport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills (SIGKILL) a child JVM in the middle of its write batches, twice, then reopens the database:
 * every batch is there entirely or not at all, so every index verifies clean.
 */
class CrashConsistencyTest {
  private static final int OPERATIONS_BEFORE_KILL = 600;

  @TempDir Path dir;

  @Test
  void killedWriterLeavesConsistentTreesAndIndexes() throws Exception {
    Path db = dir.resolve("db");
    for (int round = 0; round < 2; round++) {
      runAndKill(db, round * 10_000_000L);
      try (Backend backend = StorageFixtures.open(db, CrashingWriter.LIMIT)) {
        EntryContainer c = backend.containerFor(BASE);
        VerifyReport report = new IndexVerifier(c).verifyAll();
        assertThat(report.mismatches()).isEmpty();
        assertThat(report.entriesChecked()).isGreaterThan(OPERATIONS_BEFORE_KILL * (round + 1) / 2);
        assertThat(c.indexes()).allMatch(AttributeIndex::isTrusted);
      }
    }
    // The writer flushed every few operations, so it was writing into a recycled log file when
    // killed, and recovery read one.
    assertThat(rocksDbInfoLogs(db)).contains("reusing log");
  }

  private static String rocksDbInfoLogs(Path db) throws IOException {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> files = Files.list(db)) {
      for (Path log : files.filter(f -> f.getFileName().toString().startsWith("LOG")).toList()) {
        all.append(Files.readString(log, StandardCharsets.ISO_8859_1));
      }
    }
    return all.toString();
  }

  private static void runAndKill(Path db, long firstEntry) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child =
        new ProcessBuilder(
                List.of(
                    java,
                    "-cp",
                    System.getProperty("java.class.path"),
                    CrashingWriter.class.getName(),
                    db.toString(),
                    Long.toString(firstEntry)))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      int committed = 0;
      while (committed < OPERATIONS_BEFORE_KILL) {
        String line = out.readLine();
        assertThat(line)
            .as("the writer died before %d operations", OPERATIONS_BEFORE_KILL)
            .isNotNull();
        committed = Integer.parseInt(line.trim());
      }
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no close, mid-batch
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
  }
}
