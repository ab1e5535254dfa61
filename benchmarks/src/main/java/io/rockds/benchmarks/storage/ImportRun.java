package io.rockds.benchmarks.storage;

import io.rockds.storage.Backend;
import io.rockds.storage.importer.ImportOptions;
import io.rockds.storage.importer.ImportResult;
import io.rockds.storage.importer.LdifImporter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bulk import rate of generated OID-template entries (default indexes, LDIF generated on the fly so
 * disk reads do not count), and the resulting disk footprint.
 *
 * <pre>
 *   ./mvnw -B -o -q -pl benchmarks -am package -DskipTests
 *   java -cp benchmarks/target/benchmarks.jar io.rockds.benchmarks.storage.ImportRun 1000000 [threads]
 * </pre>
 */
public final class ImportRun {
  private ImportRun() {}

  public static void main(String[] args) throws Exception {
    long count = args.length > 0 ? Long.parseLong(args[0]) : 100_000;
    int threads =
        args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
    Path dir = Files.createTempDirectory("rockds-import-run-");
    try {
      double cpu = StorageRuns.cpuSeconds();
      ImportResult result = load(dir.resolve("db"), count, threads);
      cpu = StorageRuns.cpuSeconds() - cpu;
      System.out.printf(
          "import: %s; threads %d; %.1f CPU-s (%,.0f entries per CPU-second, LDIF generation"
              + " included); disk %.1f MB%n",
          result,
          threads,
          cpu,
          result.imported() / cpu,
          StorageRuns.diskBytes(dir.resolve("db")) / 1e6);
    } finally {
      StorageRuns.delete(dir);
    }
  }

  /** Imports users 1..count (plus suffix and ou=People) into a new backend at {@code db}. */
  static ImportResult load(Path db, long count, int threads) throws Exception {
    try (Backend backend = StorageRuns.open(db, true)) {
      return new LdifImporter(backend)
          .run(
              OidTemplate.ldif(count),
              ImportOptions.defaults(db.resolveSibling("work")).withThreads(threads));
    }
  }
}
