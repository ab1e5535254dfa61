package io.rockds.server.reliability;

import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.ConfigStore;
import io.rockds.config.ServerConfig;
import io.rockds.layout.Instance;
import io.rockds.server.Backends;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.maintenance.IndexVerifier;
import io.rockds.storage.maintenance.VerifyReport;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens an instance's backends in this JVM (the server must be stopped) and runs the index
 * verifier.
 */
final class OfflineVerification {
  private OfflineVerification() {}

  /** Every mismatch the verifier finds, one line each; empty when the storage is consistent. */
  static List<String> mismatches(Instance instance) throws Exception {
    List<String> found = new ArrayList<>();
    try (Backends backends =
        Backends.open(
            ServerConfig.read(ConfigStore.load(instance.configFile())).backends(),
            instance,
            Schema.getDefaultStandardSchema())) {
      for (Backend backend : backends.all()) {
        for (EntryContainer container : backend.containers()) {
          VerifyReport report = new IndexVerifier(container).verifyAll();
          report.mismatches().forEach(m -> found.add(backend.id() + ": " + m));
        }
      }
    }
    return found;
  }
}
