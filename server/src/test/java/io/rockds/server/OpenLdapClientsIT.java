package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.server.LdapUtilsIT.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every operation through OpenLDAP's command-line clients (ldap-utils): ldapadd, ldapsearch,
 * ldapmodify, ldapcompare, ldapmodrdn, ldappasswd, ldapwhoami and ldapdelete, over plain LDAP,
 * LDAPS and StartTLS ({@code -ZZ}: TLS required).
 */
class OpenLdapClientsIT {
  private static final String PEOPLE = "ou=People," + TestServer.BASE;
  @TempDir static Path dir;
  static TestServer server;

  enum Transport {
    PLAIN,
    LDAPS,
    START_TLS
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(dir, TestServer.baseEntries());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** The command line of {@code tool} for this transport, with the given arguments after it. */
  private static Result tool(Transport transport, String tool, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("env", "LDAPTLS_REQCERT=never", tool, "-x"));
    switch (transport) {
      case PLAIN -> command.addAll(List.of("-H", "ldap://127.0.0.1:" + server.ldapPort()));
      case LDAPS -> command.addAll(List.of("-H", "ldaps://127.0.0.1:" + server.ldapsPort()));
      case START_TLS ->
          command.addAll(List.of("-ZZ", "-H", "ldap://127.0.0.1:" + server.ldapPort()));
    }
    command.addAll(List.of(args));
    return LdapUtilsIT.run(dir, command.toArray(String[]::new));
  }

  private static Result asRoot(Transport transport, String tool, String... args) throws Exception {
    List<String> all =
        new ArrayList<>(List.of("-D", TestServer.ROOT_DN, "-w", TestServer.ROOT_PASSWORD));
    all.addAll(List.of(args));
    return tool(transport, tool, all.toArray(String[]::new));
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void everyOperation(Transport transport) throws Exception {
    LdapUtilsIT.requireLdapUtils();
    String uid = "cli-" + transport.name().toLowerCase().replace('_', '-');
    String dn = "uid=" + uid + "," + PEOPLE;
    Path add = dir.resolve(uid + "-add.ldif");
    Files.writeString(
        add,
        "dn: "
            + dn
            + "\nobjectClass: inetOrgPerson\nuid: "
            + uid
            + "\ncn: First\nsn: Smith\n"
            + "userPassword: first-secret\n");
    ok(asRoot(transport, "ldapadd", "-f", add.toString()));

    Result search =
        asRoot(transport, "ldapsearch", "-LLL", "-b", PEOPLE, "(uid=" + uid + ")", "cn", "sn");
    ok(search);
    assertThat(search.output().strip().lines().toList())
        .containsExactly("dn: " + dn, "cn: First", "sn: Smith");

    Path modify = dir.resolve(uid + "-modify.ldif");
    Files.writeString(modify, "dn: " + dn + "\nchangetype: modify\nreplace: cn\ncn: Second\n");
    ok(asRoot(transport, "ldapmodify", "-f", modify.toString()));

    Result compare = asRoot(transport, "ldapcompare", dn, "cn:Second");
    assertThat(compare.exitCode()).as(compare.output()).isEqualTo(6); // compareTrue
    assertThat(compare.output().strip()).isEqualTo("TRUE");

    Result whoAmI = tool(transport, "ldapwhoami", "-D", dn, "-w", "first-secret");
    ok(whoAmI);
    assertThat(whoAmI.output().strip()).isEqualToIgnoringCase("dn:" + dn);

    // Self-change with the old password, then a reset by the root user.
    ok(
        tool(
            transport,
            "ldappasswd",
            "-D",
            dn,
            "-w",
            "first-secret",
            "-a",
            "first-secret",
            "-s",
            "second-secret"));
    ok(tool(transport, "ldapwhoami", "-D", dn, "-w", "second-secret"));
    ok(asRoot(transport, "ldappasswd", "-s", "third-secret", dn));
    ok(tool(transport, "ldapwhoami", "-D", dn, "-w", "third-secret"));

    ok(asRoot(transport, "ldapmodrdn", "-r", dn, "uid=" + uid + "-renamed"));
    String renamed = "uid=" + uid + "-renamed," + PEOPLE;
    Result afterRename =
        asRoot(
            transport, "ldapsearch", "-LLL", "-b", renamed, "-s", "base", "(objectClass=*)", "uid");
    ok(afterRename);
    assertThat(afterRename.output())
        .contains("uid: " + uid + "-renamed")
        .doesNotContain("uid: " + uid + "\n");

    ok(asRoot(transport, "ldapdelete", renamed));
    Result gone =
        asRoot(transport, "ldapsearch", "-LLL", "-b", renamed, "-s", "base", "(objectClass=*)");
    assertThat(gone.exitCode()).as(gone.output()).isEqualTo(32); // noSuchObject
  }

  private static void ok(Result result) {
    assertThat(result.exitCode()).as(result.output()).isZero();
  }
}
