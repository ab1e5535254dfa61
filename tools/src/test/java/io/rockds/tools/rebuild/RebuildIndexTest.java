package io.rockds.tools.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.ConfigDns;
import io.rockds.config.ConfigStore;
import io.rockds.layout.Instance;
import io.rockds.server.Backends;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.backendstat.BackendStat;
import io.rockds.tools.fixtures.SampleInstance;
import io.rockds.tools.fixtures.ToolOutput;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rebuild-index on copies of the sample instance: a changed limit, recoverable keys, usage errors.
 */
class RebuildIndexTest {
  /**
   * Users with sn Rossi: SampleData gives user.i the surname LAST[(i / 20 + i) % 20], Rossi being
   * LAST[7].
   */
  private static final int ROSSI = 7;

  @TempDir Path dir;

  private static ToolOutput rebuild(Instance instance, String... args) {
    return ToolOutput.runOn(instance, new RebuildIndex(), SampleInstance.underBase(args));
  }

  private static String status(Instance instance) {
    return ToolOutput.runOn(instance, new BackendStat(), "show-index-status").out();
  }

  @Test
  void rebuildDegraded_afterALimitChange_trustsTheIndexAgain() throws Exception {
    Instance instance = SampleInstance.copyTo(dir.resolve("limit"));
    ConfigStore config = ConfigStore.load(instance.configFile());
    Entry sn = config.get(ConfigDns.index("userRoot", "sn")).duplicate();
    sn.setAttribute(new Attribute("ds-cfg-index-entry-limit", "1000"));
    config.put(sn);
    config.save();

    ToolOutput o = rebuild(instance, "--rebuildDegraded");
    assertThat(o.exitCode()).as(o.err()).isZero();
    assertThat(o.out())
        .contains("Rebuilt 2 indexes of dc=example,dc=com: ")
        .contains("sn.caseIgnoreMatch")
        .contains("sn.caseIgnoreSubstringsMatch:6");
    assertThat(status(instance))
        .containsPattern(
            "sn.caseIgnoreMatch +/dc=com,dc=example/sn.caseIgnoreMatch +true +false" + " +20 +0 ")
        .doesNotContain("Index: /dc=com,dc=example/sn.caseIgnoreMatch");

    assertThat(rebuild(instance, "--rebuildDegraded").out())
        .contains("No index of dc=example,dc=com needed a rebuild.");
  }

  @Test
  void rebuildDegraded_recoversKeysBackWithinTheLimit() throws Exception {
    Instance instance = SampleInstance.copyTo(dir.resolve("recover"));
    InstanceStorage storage = InstanceStorage.of(instance);
    try (Backend backend =
        Backend.open(
            Backends.settings(storage.backend("userRoot"), instance).withSyncWrites(false),
            Schema.getDefaultStandardSchema())) {
      EntryContainer container = backend.containers().get(0);
      int deleted = 0;
      for (int i = 0; i < SampleInstance.USERS && deleted < 101; i++) {
        if ((i / 20 + i) % 20 == ROSSI) {
          container.delete(new DN("uid=user." + i + ",ou=People,dc=example,dc=com"));
          deleted++;
        }
      }
    }
    assertThat(status(instance))
        .contains(
            "Recoverable keys (back within the limit of 400; rebuild-index"
                + " --rebuildDegraded lists their IDs again): [rossi] (399)");

    ToolOutput o = rebuild(instance, "--rebuildDegraded");
    assertThat(o.exitCode()).as(o.err()).isZero();
    assertThat(o.out()).contains("sn.caseIgnoreMatch");
    ToolOutput rossi =
        ToolOutput.runOn(
            instance,
            new BackendStat(),
            "dump-index",
            "-b",
            "dc=example,dc=com",
            "-i",
            "sn.caseIgnoreMatch",
            "-k",
            "rossi",
            "-K",
            "rossi");
    assertThat(rossi.out()).contains("Key (len 5): rossi").contains("[COUNT:399]");
    assertThat(status(instance)).doesNotContain("Recoverable");
  }

  @Test
  void exactlyOneSelectionIsRequired() {
    Instance instance = SampleInstance.copyTo(dir.resolve("usage"));
    assertThat(rebuild(instance).exitCode()).isEqualTo(2);
    assertThat(rebuild(instance, "--rebuildAll", "--rebuildDegraded").exitCode()).isEqualTo(2);
    ToolOutput unknown = rebuild(instance, "--index", "nope");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.err()).contains("no index named nope");
  }
}
