package io.rockds.storage.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.StorageFixtures;
import io.rockds.storage.importer.ImportOptions;
import io.rockds.storage.importer.ImportResult;
import io.rockds.storage.importer.LdifImporter;
import io.rockds.storage.maintenance.IndexVerifier;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The LDIF import record path (record splitting, LDIF parsing with base64 and continuation lines,
 * DN checks, bulk load) on arbitrary bytes into a real backend: the import finishes, every record
 * read is imported, rejected or skipped, and the index verifier finds the backend consistent.
 * Regression inputs: {@code src/test/resources/io/rockds/storage/reliability/
 * LdifImportFuzzTestInputs/}; fuzz for real with {@code JAZZER_FUZZ=1}.
 */
class LdifImportFuzzTest {
  @FuzzTest(maxDuration = "60s")
  void everyRecordIsImportedOrRejectedAndIndexesStayConsistent(byte[] ldif)
      throws IOException, LDAPException {
    Path dir = Files.createTempDirectory("ldif-import-fuzz");
    try {
      try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
        ImportResult result =
            new LdifImporter(backend)
                .run(
                    new ByteArrayInputStream(ldif),
                    ImportOptions.defaults(dir.resolve("work")).withThreads(1));
        assertThat(result.imported() + result.rejected() + result.skipped())
            .isEqualTo(result.read());
        for (EntryContainer container : backend.containers()) {
          assertThat(container.entryCount()).isEqualTo(result.imported());
          assertThat(new IndexVerifier(container).verifyAll().mismatches()).isEmpty();
        }
      }
    } finally {
      delete(dir);
    }
  }

  /**
   * Regression: an import with no acceptable record failed with "Cannot create sst file with no
   * entries".
   */
  @Test
  void anImportWhoseEveryRecordIsRejectedFinishesWithNothingImported()
      throws IOException, LDAPException {
    Path dir = Files.createTempDirectory("ldif-import-rejected");
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      ImportResult result =
          new LdifImporter(backend)
              .run(
                  new ByteArrayInputStream(
                      "dn: cn=x,o=elsewhere\ncn: x\n\n".getBytes(StandardCharsets.UTF_8)),
                  ImportOptions.defaults(dir.resolve("work")).withThreads(1));
      assertThat(result.read()).isEqualTo(1);
      assertThat(result.rejected()).isEqualTo(1);
      assertThat(result.imported()).isZero();
    } finally {
      delete(dir);
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
