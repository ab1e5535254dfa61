package io.rockds.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import io.rockds.layout.Instance;
import io.rockds.server.DirectoryServer;
import io.rockds.tools.backendstat.BackendStat;
import io.rockds.tools.fixtures.SampleInstance;
import io.rockds.tools.fixtures.ToolOutput;
import io.rockds.tools.rebuild.RebuildIndex;
import io.rockds.tools.status.Status;
import io.rockds.tools.verify.VerifyIndex;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator tools beside a running server: read-only views, live status, and an offline-only
 * refusal.
 */
class RunningServerIT {
  @TempDir static Path dir;

  static Instance instance;
  static DirectoryServer server;

  @BeforeAll
  static void start() throws Exception {
    instance = SampleInstance.copyTo(dir.resolve("instance"));
    server = DirectoryServer.start(instance);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static String root() {
    return instance.root().toString();
  }

  @Test
  void backendstat_readsASnapshotOfTheLiveDatabase() throws Exception {
    ToolOutput before =
        ToolOutput.run(new BackendStat(), "--instance", root(), "list-indexes", "-n", "userRoot");
    assertThat(before.exitCode()).as(before.err()).isZero();
    assertThat(before.err())
        .contains("the server is running")
        .contains("consistent read-only snapshot");
    assertThat(before.out())
        .containsPattern("uid\\.caseIgnoreMatch +\\S+ +MatchingRuleIndex +10000\n");

    try (LDAPConnection ldap =
        new LDAPConnection("127.0.0.1", server.ldapPort(), "cn=Directory Manager", "password")) {
      ldap.add(
          new Entry(
              "uid=live,ou=People,dc=example,dc=com",
              new com.unboundid.ldap.sdk.Attribute(
                  "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
              new com.unboundid.ldap.sdk.Attribute("uid", "live"),
              new com.unboundid.ldap.sdk.Attribute("sn", "Live"),
              new com.unboundid.ldap.sdk.Attribute("cn", "Live")));
    }
    ToolOutput after =
        ToolOutput.run(new BackendStat(), "--instance", root(), "list-indexes", "-n", "userRoot");
    assertThat(after.out())
        .containsPattern("uid\\.caseIgnoreMatch +\\S+ +MatchingRuleIndex +10001\n");
  }

  @Test
  void verifyIndex_findsTheLiveDatabaseConsistent() {
    ToolOutput o =
        ToolOutput.run(new VerifyIndex(), "--instance", root(), "-b", "dc=example,dc=com");
    assertThat(o.exitCode()).as(o.out() + o.err()).isZero();
    assertThat(o.err()).contains("the server is running");
    assertThat(o.out())
        .containsPattern(
            "Checked 1000\\d entries and \\d+ records of dc=example,dc=com: no inconsistency\\.");
  }

  @Test
  void status_showsTheBoundListenersAndLiveFigures() {
    ToolOutput o = ToolOutput.run(new Status(), "--instance", root(), "-w", "password");
    assertThat(o.exitCode()).as(o.err()).isZero();
    assertThat(o.out())
        .containsPattern("Server: +running, up \\d+d \\d\\dh \\d\\dm \\d\\ds")
        .contains("Listening on: ldap://127.0.0.1:" + server.ldapPort())
        .containsPattern("userRoot +dc=example,dc=com +1000\\d +16 +0")
        .containsPattern(
            "(Connections: \\d+ current, \\d+ since start\\. Operations: [0-9.]+ per second"
                + "|Connections, operations per second: not available: the server publishes no cn=monitor yet)");
  }

  @Test
  void rebuildIndex_withoutConnectionOptionsRefusesWhileTheServerRuns() {
    ToolOutput o =
        ToolOutput.run(
            new RebuildIndex(), "--instance", root(), "-b", "dc=example,dc=com", "--rebuildAll");
    assertThat(o.exitCode()).isEqualTo(1);
    assertThat(o.err()).contains("is running: rebuild through it with -p");
  }

  @Test
  void rebuildIndex_onlineWithOpenDjConnectionOptions() {
    ToolOutput o =
        ToolOutput.run(
            new RebuildIndex(),
            "-h",
            "127.0.0.1",
            "-p",
            Integer.toString(server.ldapPort()),
            "-D",
            "cn=Directory Manager",
            "-w",
            "password",
            "-b",
            "dc=example,dc=com",
            "--index",
            "givenName",
            "-Q");
    assertThat(o.exitCode()).as(o.err()).isZero();
  }

  @Test
  void status_scriptFriendlyPrintsOneNamedFactPerLine() {
    ToolOutput o =
        ToolOutput.run(new Status(), "--instance", root(), "-w", "password", "--script-friendly");
    assertThat(o.exitCode()).as(o.err()).isZero();
    assertThat(o.out())
        .contains("server.state\trunning\n")
        .contains("listening\tldap://127.0.0.1:" + server.ldapPort())
        .containsPattern("backend\\.userRoot\\.dc=example,dc=com\\.entries\t1000\\d\n")
        .contains("backend.userRoot.dc=example,dc=com.untrusted-indexes\t0\n")
        .containsPattern("connections\\.current\t\\d+\n")
        .doesNotContain("Listener  ");
    assertThat(o.out().lines()).allMatch(l -> l.matches("[^\t]+\t[^\t]*"));
  }

  @Test
  void backendstat_scriptFriendlyPrintsTabSeparatedRowsOnly() {
    ToolOutput o =
        ToolOutput.run(
            new BackendStat(),
            "--instance",
            root(),
            "--script-friendly",
            "list-indexes",
            "-n",
            "userRoot",
            "-b",
            "dc=example,dc=com");
    assertThat(o.exitCode()).as(o.err()).isZero();
    assertThat(o.out())
        .containsPattern("(?m)^uid\\.caseIgnoreMatch\t\\S+\tMatchingRuleIndex\t1000\\d$")
        .doesNotContain("Total")
        .doesNotContain("Index Name");
  }
}
