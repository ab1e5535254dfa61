package io.rockds.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ConfigException;
import io.rockds.server.DirectoryServer;
import io.rockds.server.TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cn=config over LDAP: reads, validated writes applied live, and a bad file refused at start. */
class ConfigBackendIT {
  @TempDir Path dir;

  @Test
  void rootReadsAndChangesConfigurationAndAccessLogSwitchesToJsonLive() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries());
        LDAPConnection c = server.rootConnection()) {
      assertThat(c.search("cn=config", SearchScope.ONE, "(objectClass=*)").getEntryCount())
          .isGreaterThanOrEqualTo(6);
      assertThat(
              c.getEntry("ds-cfg-backend-id=userRoot,cn=Backends,cn=config")
                  .getAttributeValue("ds-cfg-base-dn"))
          .isEqualTo(TestServer.BASE);

      LDAPResult result =
          c.modify(
              "cn=File-Based Access Logger,cn=Loggers,cn=config",
              new Modification(ModificationType.REPLACE, "ds-cfg-log-format", "json"));
      assertThat(result.getResultCode()).isEqualTo(ResultCode.SUCCESS);
      c.search(TestServer.BASE, SearchScope.BASE, "(objectClass=*)");

      Path access = server.instance().root().resolve("logs/access");
      String json = awaitLine(access, l -> l.startsWith("{") && l.contains("\"type\":\"SEARCH\""));
      assertThat(json)
          .contains("\"base\":\"dc=example,dc=com\"")
          .contains("\"result\":0")
          .contains("\"nentries\":1");
      assertThat(
              awaitLine(
                  server.instance().root().resolve("logs/errors"),
                  l -> l.contains("category=CONFIG")))
          .contains("modified cn=File-Based Access Logger");

      assertThatThrownBy(
              () ->
                  c.modify(
                      "cn=config",
                      new Modification(ModificationType.REPLACE, "ds-cfg-size-limit", "many")))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
                assertThat(e.getDiagnosticMessage()).contains("ds-cfg-size-limit: \"many\"");
              });
      LDAPResult limit =
          c.modify(
              "ds-cfg-attribute=sn,cn=Index,ds-cfg-backend-id=userRoot,cn=Backends,cn=config",
              new Modification(ModificationType.REPLACE, "ds-cfg-index-entry-limit", "10"));
      assertThat(limit.getDiagnosticMessage())
          .contains("index-entry-limit")
          .contains("applies immediately")
          .contains("rebuild-index");
      io.rockds.storage.EntryContainer container =
          server.server().backends().containerFor(new DN(TestServer.BASE));
      assertThat(container.index("sn", io.rockds.storage.IndexType.EQUALITY).entryLimit().limit())
          .isEqualTo(10);
      assertThat(container.index("sn", io.rockds.storage.IndexType.EQUALITY).isTrusted()).isTrue();
      assertThat(
              awaitLine(
                  server.instance().root().resolve("logs/errors"), l -> l.contains("userRoot/sn")))
          .contains("severity=NOTICE")
          .contains("now uses index-entry-limit 10")
          .contains("would tighten it");

      assertThatThrownBy(() -> c.delete("cn=Loggers,cn=config"))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
    }
  }

  @Test
  void rootPasswordChangedInTheConfigurationIsHashedAndUsedAtOnce() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries())) {
      try (LDAPConnection c = server.rootConnection()) {
        c.modify(
            "cn=Directory Manager,cn=Root DNs,cn=config",
            new Modification(ModificationType.REPLACE, "userPassword", "changed-secret"));
        assertThat(
                c.getEntry("cn=Directory Manager,cn=Root DNs,cn=config")
                    .getAttributeValue("userPassword"))
            .startsWith("{PBKDF2-SHA256}");
      }
      try (LDAPConnection again =
          new LDAPConnection(
              "127.0.0.1", server.ldapPort(), TestServer.ROOT_DN, "changed-secret")) {
        assertThat(again.getEntry("cn=config")).isNotNull();
      }
      assertThatThrownBy(() -> server.rootConnection())
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }
  }

  @Test
  void handEditedConfigurationWithAnErrorIsRefusedAtStartWithLineAndReason() throws Exception {
    Path file;
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries())) {
      file = server.instance().configFile();
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    int line = lines.indexOf("ds-cfg-allow-start-tls: true");
    lines.set(line, "ds-cfg-allow-start-tls: perhaps");
    Files.write(file, lines, StandardCharsets.UTF_8);
    assertThatThrownBy(
            () -> DirectoryServer.start(new io.rockds.layout.Instance(dir.resolve("instance"))))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("config.ldif: line " + (line + 1) + ": ")
        .hasMessageContaining("ds-cfg-allow-start-tls: \"perhaps\" (expected: true or false)");
  }

  private static String awaitLine(Path file, java.util.function.Predicate<String> wanted)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (Files.exists(file)) {
        for (String l : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (wanted.test(l)) {
            return l;
          }
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no matching line in " + file);
  }
}
