package io.rockds.benchmarks.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.Backend;
import io.rockds.storage.BackendSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Backends for the bounded storage runs: the OID suffix with the default indexes. */
final class StorageRuns {
  private StorageRuns() {}

  static Backend open(Path directory, boolean sync) throws LDAPException {
    return Backend.open(
        BackendSettings.defaults("userRoot", directory, new DN(OidTemplate.SUFFIX))
            .withIndexes(OidTemplate.DEFAULT_INDEXES)
            .withSyncWrites(sync),
        Schema.getDefaultStandardSchema());
  }

  /**
   * CPU time used by this process so far: rates per CPU-second stay comparable on a busy machine.
   */
  static double cpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1e9;
  }

  static long diskBytes(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  static void delete(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
