package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.testsupport.RequiredTool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OpenLDAP's command-line clients (Debian's ldap-utils) against the server. */
class LdapUtilsIT {
  @TempDir Path dir;

  /** Runs a command, returning its exit code and combined output. */
  static Result run(Path workDir, String... command) throws Exception {
    Process p =
        new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", command));
    }
    return new Result(p.exitValue(), out);
  }

  record Result(int exitCode, String output) {}

  static void requireLdapUtils() {
    RequiredTool.assumeInstalled(Path.of("/usr/bin/ldapsearch"), "ldap-utils");
  }

  @Test
  void ldapsearchAndLdapaddWorkAgainstTheServer() throws Exception {
    requireLdapUtils();
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries())) {
      String url = "ldap://127.0.0.1:" + server.ldapPort();
      Path ldif = dir.resolve("add.ldif");
      Files.writeString(
          ldif,
          "dn: uid=user.7,ou=People,dc=example,dc=com\nobjectClass: inetOrgPerson\n"
              + "uid: user.7\ncn: Seven Smith\nsn: Smith\n");
      Result add =
          run(
              dir,
              "ldapadd",
              "-H",
              url,
              "-x",
              "-D",
              TestServer.ROOT_DN,
              "-w",
              TestServer.ROOT_PASSWORD,
              "-f",
              ldif.toString());
      assertThat(add.exitCode()).as(add.output()).isZero();
      Result search =
          run(
              dir,
              "ldapsearch",
              "-H",
              url,
              "-x",
              "-LLL",
              "-D",
              TestServer.ROOT_DN,
              "-w",
              TestServer.ROOT_PASSWORD,
              "-b",
              "dc=example,dc=com",
              "(uid=user.7)",
              "cn",
              "sn");
      assertThat(search.exitCode()).as(search.output()).isZero();
      assertThat(search.output().strip().lines().toList())
          .containsExactly(
              "dn: uid=user.7,ou=People,dc=example,dc=com", "cn: Seven Smith", "sn: Smith");

      Result rootDse =
          run(dir, "ldapsearch", "-H", url, "-x", "-LLL", "-s", "base", "-b", "", "namingContexts");
      assertThat(rootDse.output()).contains("namingContexts: dc=example,dc=com");

      List<String> tls =
          new ArrayList<>(
              List.of(
                  "env",
                  "LDAPTLS_REQCERT=never",
                  "ldapwhoami",
                  "-x",
                  "-D",
                  TestServer.ROOT_DN,
                  "-w",
                  TestServer.ROOT_PASSWORD));
      Result ldaps = run(dir, concat(tls, "-H", "ldaps://127.0.0.1:" + server.ldapsPort()));
      assertThat(ldaps.output().strip()).isEqualTo("dn:cn=Directory Manager");
      Result startTls = run(dir, concat(tls, "-ZZ", "-H", url));
      assertThat(startTls.output().strip()).isEqualTo("dn:cn=Directory Manager");
    }
  }

  private static String[] concat(List<String> base, String... more) {
    List<String> all = new ArrayList<>(base);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }
}
