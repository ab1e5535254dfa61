package io.rockds.tools.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.layout.Instance;
import io.rockds.tools.fixtures.SampleInstance;
import io.rockds.tools.fixtures.ToolOutput;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** status of a stopped instance: what the configuration and the databases say. */
class StatusTest {
  @TempDir Path dir;

  @Test
  void stoppedInstance_showsListenersBackendsAndTrust() {
    Instance instance = SampleInstance.copyTo(dir.resolve("instance"));
    ToolOutput o = ToolOutput.run(new Status(), "--instance", instance.root().toString());
    assertThat(o.exitCode()).as(o.err()).isZero();
    assertThat(o.out())
        .contains("Server:    stopped")
        .containsPattern("LDAP Connection Handler +LDAP \\(StartTLS\\) +127\\.0\\.0\\.1 +0 +true")
        .containsPattern("userRoot +dc=example,dc=com +10004 +16 +0")
        .contains("Index trust: every index is trusted.")
        .contains("Connections, operations per second: the server is stopped.");
  }
}
