package io.rockds.tools.dsconfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ConfigDns;
import io.rockds.config.ConfigStore;
import io.rockds.config.ServerConfig;
import io.rockds.layout.Instance;
import io.rockds.server.DirectoryServer;
import io.rockds.server.InstanceSetup;
import io.rockds.tools.ToolRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * dsconfig against a real server on loopback: the seed's commands verbatim (host, port and password
 * aside), then what they are for: an unindexed search in logs/search.
 */
class DsConfigIT {
  private static final String BASE = "dc=example,dc=com";
  private static final String PASSWORD = "test-secret";
  private static final int USERS = 500;

  @TempDir Path dir;
  private Instance instance;
  private DirectoryServer server;

  @BeforeEach
  void start() throws Exception {
    instance = new Instance(dir.resolve("instance"));
    List<Entry> entries =
        new ArrayList<>(
            List.of(
                new Entry("dn: " + BASE, "objectClass: top", "objectClass: domain", "dc: example"),
                new Entry(
                    "dn: ou=People," + BASE,
                    "objectClass: top",
                    "objectClass: organizationalUnit",
                    "ou: People")));
    for (int i = 0; i < USERS; i++) {
      entries.add(
          new Entry(
              "dn: uid=user." + i + ",ou=People," + BASE,
              "objectClass: inetOrgPerson",
              "uid: user." + i,
              "cn: User " + i,
              "sn: Number" + i,
              "description: person number " + i,
              "userPassword: password"));
    }
    InstanceSetup.create(instance, InstanceSetup.loopback(new DN(BASE), 0, 0), PASSWORD, entries);
    server = DirectoryServer.start(instance);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** A dsconfig run in-process: exit code, standard output and error. */
  record Run(int exitCode, String out, String err) {}

  private Run dsconfig(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        ToolRunner.run(
            DsConfig.command(), new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  /** The seed's connection options, with this server's LDAP port and password. */
  private List<String> online() {
    return List.of(
        "-D",
        "cn=directory manager",
        "-w",
        PASSWORD,
        "-h",
        "localhost",
        "-p",
        Integer.toString(server.ldapPort()),
        "-n",
        "-X");
  }

  private Run online(String... subcommand) {
    List<String> args = new ArrayList<>(online());
    args.addAll(List.of(subcommand));
    return dsconfig(args.toArray(String[]::new));
  }

  private Run ok(String... subcommand) {
    Run run = online(subcommand);
    assertThat(run.exitCode()).as(String.join(" ", subcommand) + "\n" + run.err()).isZero();
    return run;
  }

  /**
   * The seed's search log: a publisher writing logs/search and its criteria "Expensive Searches",
   * unindexed searches, narrowed by {@code moreCriteria} (more {@code --set} options).
   */
  private void createSearchLog(String... moreCriteria) {
    ok(
        "create-log-publisher",
        "--set",
        "enabled:true",
        "--set",
        "log-file:logs/search",
        "--set",
        "filtering-policy:inclusive",
        "--set",
        "log-format:combined",
        "--type",
        "file-based-access",
        "--publisher-name",
        "Searches");
    List<String> criteria =
        new ArrayList<>(
            List.of(
                "create-access-log-filtering-criteria",
                "--publisher-name",
                "Searches",
                "--set",
                "log-record-type:search",
                "--set",
                "search-response-is-indexed:false"));
    criteria.addAll(List.of(moreCriteria));
    criteria.addAll(List.of("--type", "generic", "--criteria-name", "Expensive Searches"));
    ok(criteria.toArray(String[]::new));
  }

  /** The script-friendly line of one property of the backend userRoot. */
  private String userRootProperty(String property) {
    return ok("get-backend-prop", "--backend-name", "userRoot", "--property", property, "-s").out();
  }

  /** The script-friendly lines of an index of userRoot: all its properties or those asked. */
  private String userRootIndexProperties(String index, String... properties) {
    List<String> args =
        new ArrayList<>(
            List.of("get-backend-index-prop", "--backend-name", "userRoot", "--index-name", index));
    args.addAll(List.of(properties));
    args.add("-s");
    return ok(args.toArray(String[]::new)).out();
  }

  /** Runs a subcommand the server must refuse (exit code 1); what it printed on stderr. */
  private String refused(String... subcommand) {
    Run run = online(subcommand);
    assertThat(run.exitCode()).as(run.out()).isEqualTo(1);
    return run.err();
  }

  private LDAPConnection root() throws LDAPException {
    return new LDAPConnection("127.0.0.1", server.ldapPort(), "cn=Directory Manager", PASSWORD);
  }

  @Test
  void seedCommandsLogUnindexedSlowSearchesToLogsSearchAndNotIndexedOnes() throws Exception {
    createSearchLog("--set", "response-etime-greater-than:0");

    try (LDAPConnection c = root()) {
      assertThat(c.search(BASE, SearchScope.SUB, "(uid=user.1)").getEntryCount()).isEqualTo(1);
      assertThat(c.search(BASE, SearchScope.SUB, "(description=*number*)").getEntryCount())
          .isEqualTo(USERS);
    }

    Path searchLog = instance.root().resolve("logs/search");
    List<String> lines = awaitLines(searchLog, l -> l.contains("unindexed"));
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .matches(
            "\\[\\d{2}/\\w{3}/\\d{4}:\\d{2}:\\d{2}:\\d{2} [+-]\\d{4}] SEARCH conn=\\d+ op=\\d+"
                + " msgID=\\d+ base=\"dc=example,dc=com\" scope=sub filter=\"\\(description=\\*number\\*\\)\" attrs=\"ALL\""
                + " result=0 nentries="
                + USERS
                + " unindexed etime=[1-9]\\d*");
    // The default access log has every operation, the indexed search included.
    List<String> access =
        awaitLines(
            instance.root().resolve("logs/access"), l -> l.contains("(description=*number*)"));
    assertThat(String.join("\n", access))
        .contains(" CONNECT conn=")
        .contains(" BIND conn=")
        .contains("filter=\"(uid=user.1)\" attrs=\"ALL\" result=0 nentries=1 etime=")
        .contains(" ADD conn=");
  }

  /**
   * Polls a file written asynchronously until a line satisfies {@code until}; at most ten seconds.
   */
  private static List<String> awaitLines(Path file, Predicate<String> until) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (Files.exists(file)) {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.stream().anyMatch(until)) {
          return lines;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError(
        "no matching line in "
            + file
            + " after 10 s: "
            + (Files.exists(file) ? Files.readString(file) : "(no file)"));
  }

  @Test
  void backendAndIndexSubcommandsWithTheSeedIndexCommand() {
    assertThat(ok("list-backends").out()).contains("userRoot").contains("rocksdb");
    assertThat(ok("get-backend-prop", "--backend-name", "userRoot").out())
        .containsPattern("index-entry-limit\\s+: 4000")
        .contains("dc=example,dc=com");
    assertThat(
            ok("set-backend-prop", "--backend-name", "userRoot", "--set", "index-entry-limit:5000")
                .out())
        .contains("index-entry-limit")
        .contains("applies immediately");
    assertThat(userRootProperty("index-entry-limit"))
        .isEqualTo("index-entry-limit\t5000" + System.lineSeparator());

    assertThat(ok("list-backend-indexes", "--backend-name", "userRoot").out())
        .contains("sn")
        .contains("uid");
    ok("delete-backend-index", "--backend-name", "userRoot", "--index-name", "sn");
    assertThat(ok("list-backend-indexes", "--backend-name", "userRoot", "-s").out())
        .doesNotContain("sn\t");
    assertThat(
            ok(
                    "create-backend-index",
                    "--backend-name",
                    "userRoot",
                    "--index-name",
                    "sn",
                    "--set",
                    "index-type:equality",
                    "--set",
                    "index-entry-limit:5000")
                .out())
        .contains("rebuilt");
    assertThat(userRootIndexProperties("sn"))
        .contains("index-type\tequality")
        .contains("index-entry-limit\t5000")
        .contains("substring-length\t6");
    ok(
        "set-backend-index-prop",
        "--backend-name",
        "userRoot",
        "--index-name",
        "sn",
        "--add",
        "index-type:substring");
    assertThat(userRootIndexProperties("sn", "--property", "index-type"))
        .contains("equality, substring");
  }

  @Test
  void talksLdapsAndStartTlsTrustingTheSelfSignedCertificateWithX() {
    Run ldaps = asRootOnPort(server.ldapsPort(), "-Z", "-X", "list-connection-handlers", "-s");
    assertThat(ldaps.exitCode()).as(ldaps.err()).isZero();
    assertThat(ldaps.out()).contains("LDAPS Connection Handler\tldap");
    Run startTls = asRootOnPort(server.ldapPort(), "-q", "-X", "list-backends", "-s");
    assertThat(startTls.exitCode()).as(startTls.err()).isZero();
    assertThat(startTls.out()).contains("userRoot\trocksdb");
    Run untrusted = asRootOnPort(server.ldapsPort(), "-Z", "list-backends");
    assertThat(untrusted.exitCode()).isEqualTo(1);
    assertThat(untrusted.err())
        .contains("cannot connect to 127.0.0.1:")
        .contains("certificate")
        .contains("-X")
        .doesNotContain("LDAPException(");
  }

  /** dsconfig as the root user to 127.0.0.1:{@code port}, non-interactive, then {@code args}. */
  private Run asRootOnPort(int port, String... args) {
    List<String> all =
        new ArrayList<>(
            List.of(
                "-h",
                "127.0.0.1",
                "-p",
                Integer.toString(port),
                "-D",
                "cn=Directory Manager",
                "-w",
                PASSWORD,
                "-n"));
    all.addAll(List.of(args));
    return dsconfig(all.toArray(String[]::new));
  }

  @Test
  void badValuesAndUnknownPropertiesAreRefusedNamingTheProperty() {
    assertThat(
            refused(
                "set-backend-prop",
                "--backend-name",
                "userRoot",
                "--set",
                "index-entry-limit:lots"))
        .startsWith("set-backend-prop: Invalid configuration: ")
        .contains("index-entry-limit")
        .contains("\"lots\"")
        .contains("expected: an integer")
        .doesNotContain("LDAPException");

    assertThat(
            refused(
                "set-log-publisher-prop",
                "--publisher-name",
                "File-Based Access Logger",
                "--set",
                "log-flie:x"))
        .contains("no property \"log-flie\"")
        .contains("log-file");

    assertThat(
            refused(
                "create-log-publisher",
                "--publisher-name",
                "X",
                "--type",
                "file-based-access",
                "--set",
                "enabled:true",
                "--set",
                "log-file:logs/x",
                "--set",
                "filtering-policy:sometimes"))
        .contains("filtering-policy")
        .contains("no-filtering, inclusive, exclusive");
    assertThat(online("list-log-publishers", "-s").out()).doesNotContain("X\t");
  }

  @Test
  void logPublisherCriteriaConnectionHandlerAndPasswordSubcommands() {
    assertThat(ok("list-log-publishers").out())
        .contains("File-Based Access Logger")
        .contains("file-based-error");
    ok(
        "set-log-publisher-prop",
        "--publisher-name",
        "File-Based Access Logger",
        "--set",
        "log-format:json");
    assertThat(
            ok("get-log-publisher-prop", "--publisher-name", "File-Based Access Logger", "-s")
                .out())
        .contains("log-format\tjson")
        .contains("filtering-policy\tno-filtering");
    ok(
        "create-log-publisher",
        "--publisher-name",
        "Failures",
        "--type",
        "file-based-access",
        "--set",
        "enabled:true",
        "--set",
        "log-file:logs/failures",
        "--set",
        "filtering-policy:exclusive");
    ok(
        "create-access-log-filtering-criteria",
        "--publisher-name",
        "Failures",
        "--criteria-name",
        "Successes",
        "--set",
        "result-code-equal-to:0");
    assertThat(ok("list-access-log-filtering-criteria", "--publisher-name", "Failures").out())
        .contains("Successes");
    ok(
        "set-access-log-filtering-criteria-prop",
        "--publisher-name",
        "Failures",
        "--criteria-name",
        "Successes",
        "--add",
        "result-code-equal-to:5",
        "--add",
        "result-code-equal-to:6");
    assertThat(
            ok(
                    "get-access-log-filtering-criteria-prop",
                    "--publisher-name",
                    "Failures",
                    "--criteria-name",
                    "Successes",
                    "--property",
                    "result-code-equal-to",
                    "-s")
                .out())
        .contains("0, 5, 6");
    ok(
        "delete-access-log-filtering-criteria",
        "--publisher-name",
        "Failures",
        "--criteria-name",
        "Successes");
    ok("delete-log-publisher", "--publisher-name", "Failures");
    assertThat(ok("list-log-publishers", "-s").out()).doesNotContain("Failures");

    assertThat(ok("list-connection-handlers").out())
        .contains("LDAP Connection Handler")
        .contains("ldap");
    assertThat(
            ok(
                    "set-connection-handler-prop",
                    "--handler-name",
                    "LDAP Connection Handler",
                    "--set",
                    "max-connections:100")
                .out())
        .contains("restarts");
    assertThat(
            ok("get-connection-handler-prop", "--handler-name", "LDAP Connection Handler", "-s")
                .out())
        .contains("max-connections\t100");

    assertThat(ok("list-password-storage-schemes").out())
        .contains("Salted SHA-512")
        .contains("Bcrypt");
    ok("set-password-storage-scheme-prop", "--scheme-name", "MD5", "--set", "enabled:false");
    assertThat(ok("get-password-storage-scheme-prop", "--scheme-name", "MD5", "-s").out())
        .contains("enabled\tfalse");
    assertThat(ok("list-password-policies").out()).contains("Default Password Policy");
    ok(
        "create-password-policy",
        "--policy-name",
        "Strong",
        "--set",
        "default-password-storage-scheme:cn=PBKDF2-HMAC-SHA512,cn=Password Storage Schemes,cn=config");
    assertThat(ok("get-password-policy-prop", "--policy-name", "Strong", "-s").out())
        .contains("default-password-storage-scheme\tcn=PBKDF2-HMAC-SHA512");
    ok("set-password-policy-prop", "--policy-name", "Strong", "--reset", "password-attribute");
    ok("delete-password-policy", "--policy-name", "Strong");
    assertThat(ok("list-password-policies", "-s").out()).doesNotContain("Strong");
  }

  @Test
  void passwordValidatorsAreDsconfigObjectsThePolicyNamesLive() throws Exception {
    assertThat(ok("list-password-validators").out())
        .contains("Length-Based Password Validator")
        .contains("Character Set")
        .contains("Dictionary")
        .contains("Attribute Value");
    ok(
        "set-password-validator-prop",
        "--validator-name",
        "Length-Based Password Validator",
        "--set",
        "min-password-length:12");
    ok(
        "create-password-validator",
        "--validator-name",
        "Digits",
        "--type",
        "character-set",
        "--set",
        "enabled:true",
        "--set",
        "character-set:2:0123456789");
    ok(
        "set-password-policy-prop",
        "--policy-name",
        "Default Password Policy",
        "--add",
        "password-validator:Digits");
    assertThat(
            refused(
                "set-password-policy-prop",
                "--policy-name",
                "Default Password Policy",
                "--add",
                "password-validator:No Such Validator"))
        .contains("password-validator");
    String user = "uid=user.1,ou=People," + BASE;
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", server.ldapPort(), user, "password")) {
      for (String refused : List.of("short-1", "long-enough-no-digits", "long-enough-1-digit")) {
        assertThatThrownBy(
                () ->
                    c.modify(
                        user, new Modification(ModificationType.REPLACE, "userPassword", refused)))
            .as(refused)
            .isInstanceOfSatisfying(
                LDAPException.class,
                e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION));
      }
      c.modify(
          user,
          new Modification(ModificationType.REPLACE, "userPassword", "long-enough-42-digits"));
    }
  }

  @Test
  void defaultPasswordPolicySchemeAppliesLiveAndMustBeEnabled() throws Exception {
    assertThat(
            refused(
                "set-password-policy-prop",
                "--policy-name",
                "Default Password Policy",
                "--set",
                "default-password-storage-scheme:cn=Clear,cn=Password Storage Schemes,cn=config"))
        .contains("default-password-storage-scheme")
        .contains("enabled password storage scheme");

    ok(
        "set-password-policy-prop",
        "--policy-name",
        "Default Password Policy",
        "--set",
        "default-password-storage-scheme:cn=PBKDF2-HMAC-SHA512,cn=Password Storage Schemes,cn=config");
    try (LDAPConnection c = root()) {
      c.add(
          "dn: uid=new,ou=People," + BASE,
          "objectClass: inetOrgPerson",
          "uid: new",
          "cn: New",
          "sn: New",
          "userPassword: secret12");
      assertThat(
              c.getEntry("uid=new,ou=People," + BASE, "userPassword")
                  .getAttributeValue("userPassword"))
          .startsWith("{PBKDF2-HMAC-SHA512}");
    }
  }

  @Test
  void globalLimitsApplyLiveAndNeedConfigPrivileges() throws Exception {
    ok("set-global-configuration-prop", "--set", "size-limit:3");
    assertThat(ok("get-global-configuration-prop", "--property", "size-limit", "-s").out())
        .isEqualTo("size-limit\t3" + System.lineSeparator());
    try (LDAPConnection user =
        new LDAPConnection(
            "127.0.0.1", server.ldapPort(), "uid=user.1,ou=People," + BASE, "password")) {
      assertThatThrownBy(
              () ->
                  user.search(
                      new SearchRequest(
                          "ou=People," + BASE,
                          SearchScope.ONE,
                          "(objectClass=inetOrgPerson)",
                          "uid")))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.SIZE_LIMIT_EXCEEDED);
      assertThatThrownBy(() -> user.getEntry("cn=config"))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      assertThatThrownBy(
              () ->
                  user.modify(
                      "cn=config",
                      new com.unboundid.ldap.sdk.Modification(
                          com.unboundid.ldap.sdk.ModificationType.REPLACE,
                          "ds-cfg-size-limit",
                          "0")))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  @Test
  void configurationSurvivesRestartAndNewPublishersKeepLogging() throws Exception {
    createSearchLog();
    ok("set-backend-prop", "--backend-name", "userRoot", "--set", "index-entry-limit:4500");
    server.close();
    server = DirectoryServer.start(instance);

    assertThat(userRootProperty("index-entry-limit")).contains("4500");
    assertThat(
            ok(
                    "get-access-log-filtering-criteria-prop",
                    "--publisher-name",
                    "Searches",
                    "--criteria-name",
                    "Expensive Searches",
                    "-s")
                .out())
        .contains("search-response-is-indexed\tfalse");
    try (LDAPConnection c = root()) {
      c.search(BASE, SearchScope.SUB, "(description=*after restart*)");
    }
    assertThat(awaitLines(instance.root().resolve("logs/search"), l -> l.contains("after restart")))
        .isNotEmpty();
  }

  @Test
  void offlineEditsTheFileOfAStoppedServerOnly() throws Exception {
    Run refused = offline("set-global-configuration-prop", "--set", "size-limit:7");
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.err()).contains("is running");

    server.close();
    server = null;
    Run set = offline("set-global-configuration-prop", "--set", "size-limit:7");
    assertThat(set.exitCode()).as(set.err()).isZero();
    Run index =
        offline(
            "create-backend-index",
            "--backend-name",
            "userRoot",
            "--index-name",
            "description",
            "--set",
            "index-type:substring");
    assertThat(index.exitCode()).as(index.err()).isZero();
    Run bad = offline("set-global-configuration-prop", "--set", "size-limit:-7");
    assertThat(bad.exitCode()).isEqualTo(1);
    assertThat(bad.err()).contains("size-limit");

    ServerConfig config = ServerConfig.read(ConfigStore.load(instance.configFile()));
    assertThat(config.global().sizeLimit()).isEqualTo(7);
    assertThat(config.backends().get(0).indexes())
        .anyMatch(i -> i.attribute().equals("description"));
    server = DirectoryServer.start(instance);
    assertThat(ok("get-global-configuration-prop", "-s").out()).contains("size-limit\t7");
    assertThat(ConfigDns.isConfig(ConfigDns.backend("userRoot"))).isTrue();
  }

  /** dsconfig {@code --offline} on this test's instance, non-interactive. */
  private Run offline(String... subcommand) {
    return dsconfig(
        Stream.concat(
                Stream.of("--offline", "--instance", instance.root().toString(), "-n"),
                Stream.of(subcommand))
            .toArray(String[]::new));
  }

  @Test
  void binDsconfigRunsAsAProcessWithTheSeedOptions() throws Exception {
    Path repo = Path.of("..").toAbsolutePath().normalize();
    List<String> command = new ArrayList<>(List.of(repo.resolve("bin/dsconfig").toString()));
    command.addAll(online());
    command.addAll(
        List.of("get-backend-prop", "--backend-name", "userRoot", "--property", "base-dn", "-s"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output).isEqualTo("base-dn\t" + BASE + "\n");
  }

  @Test
  void pluginProvidersSaslHandlersAndRootDnAreObjectsThatApply() throws Exception {
    assertThat(ok("list-plugins", "-s").out())
        .contains("Referential Integrity\treferential-integrity");
    assertThat(ok("list-key-manager-providers", "-s").out())
        .contains("Default Key Manager\tfile-based");
    assertThat(ok("list-trust-manager-providers", "-s").out())
        .contains("Default Trust Manager\tfile-based");
    assertThat(ok("list-sasl-mechanism-handlers", "-s").out())
        .contains("EXTERNAL\texternal")
        .contains("PLAIN\tplain");
    assertThat(
            ok("get-key-manager-provider-prop", "--provider-name", "Default Key Manager", "-s")
                .out())
        .contains("key-store-file\tconfig/keystore.p12");
    assertThat(
            online(
                    "set-key-manager-provider-prop",
                    "--provider-name",
                    "Default Key Manager",
                    "--set",
                    "enabled:false")
                .err())
        .contains("need a key manager");
    assertThat(dsconfig("list-properties", "-s").out().lines())
        .anyMatch(l -> l.startsWith("plugin\treferential-integrity\tattribute-type\t"))
        .anyMatch(applying("key-manager-provider\tfile-based", "key-store-file", "after restart"))
        .anyMatch(applying("sasl-mechanism-handler", "enabled", "immediately"))
        .anyMatch(applying("root-dn", "default-root-privilege-name", "immediately"));

    // SASL PLAIN: disabled live, gone from the root DSE and refused at bind.
    String plainUser = "u:user.1";
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      c.bind(new com.unboundid.ldap.sdk.PLAINBindRequest(plainUser, "password"));
    }
    ok("set-sasl-mechanism-handler-prop", "--handler-name", "PLAIN", "--set", "enabled:false");
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", server.ldapPort())) {
      assertThat(c.getRootDSE().getSupportedSASLMechanismNames()).containsExactly("EXTERNAL");
      assertThatThrownBy(
              () -> c.bind(new com.unboundid.ldap.sdk.PLAINBindRequest(plainUser, "password")))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.AUTH_METHOD_NOT_SUPPORTED);
    }

    // Root DN privileges: without proxied-auth the root user cannot act as another user.
    ok("set-root-dn-prop", "--remove", "default-root-privilege-name:proxied-auth");
    assertThat(ok("get-root-dn-prop", "-s").out())
        .contains("config-write")
        .doesNotContain("proxied-auth");
    try (LDAPConnection root = root()) {
      assertThatThrownBy(() -> root.search(proxiedAsUser1()))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.AUTHORIZATION_DENIED);
    }
    ok("set-root-dn-prop", "--add", "default-root-privilege-name:proxied-auth");
    try (LDAPConnection root = root()) {
      assertThat(root.search(proxiedAsUser1()).getEntryCount()).isEqualTo(1);
    }
  }

  private static SearchRequest proxiedAsUser1() throws LDAPException {
    SearchRequest read =
        new SearchRequest("uid=user.1,ou=People," + BASE, SearchScope.BASE, "(objectClass=*)");
    read.addControl(
        new com.unboundid.ldap.sdk.controls.ProxiedAuthorizationV2RequestControl(
            "dn:uid=user.1,ou=People," + BASE));
    return read;
  }

  /**
   * A line of {@code list-properties -s}: of {@code component} (its first columns), naming {@code
   * property}, whose change applies {@code when}.
   */
  private static Predicate<String> applying(String component, String property, String when) {
    return line ->
        line.startsWith(component + "\t")
            && line.contains("\t" + property + "\t")
            && line.endsWith("\t" + when);
  }

  @Test
  void listPropertiesShowsSyntaxDefaultAndWhenAChangeApplies() {
    Run all = dsconfig("list-properties", "-s");
    assertThat(all.exitCode()).as(all.err()).isZero();
    assertThat(all.out().lines())
        .allMatch(l -> l.split("\t", -1).length == 8)
        .contains(
            "backend\trocksdb\tindex-entry-limit\tan integer of at least 0\t4000\tno\tno"
                + "\timmediately (rebuild-index tightens)")
        .anyMatch(applying("connection-handler", "listen-port", "after restart"))
        .anyMatch(applying("global-configuration", "size-limit", "immediately"));
    Run one = dsconfig("list-properties", "--type", "backend-index", "--property", "index-type");
    assertThat(one.exitCode()).isZero();
    assertThat(one.out())
        .contains("Component")
        .contains("index-type")
        .contains("after rebuild-index")
        .doesNotContain("listen-port");
    assertThat(dsconfig("list-properties", "--type", "nonsense").exitCode())
        .isEqualTo(ToolRunner.EXIT_USAGE);
  }

  @Test
  void aBatchFileAppliesManyChangesWithOneSetOfConnectionOptions() throws Exception {
    Path batch = dir.resolve("changes.dsconfig");
    Files.writeString(
        batch,
        String.join(
            "\n",
            "# size and time limits",
            "set-global-configuration-prop --set size-limit:321",
            "",
            "create-backend-index --backend-name userRoot --index-name description \\",
            "    --set index-type:substring --set 'index-entry-limit:4001'",
            "set-global-configuration-prop --set \"time-limit:77\""));
    List<String> args = new ArrayList<>(online());
    args.addAll(List.of("--batchFilePath", batch.toString()));
    Run run = dsconfig(args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(
            ok(
                    "get-global-configuration-prop",
                    "--property",
                    "size-limit",
                    "--property",
                    "time-limit",
                    "-s")
                .out())
        .contains("size-limit\t321")
        .contains("time-limit\t77");
    assertThat(userRootIndexProperties("description"))
        .contains("index-type\tsubstring")
        .contains("index-entry-limit\t4001");

    Files.writeString(
        batch,
        "set-global-configuration-prop --set size-limit:5\n"
            + "set-global-configuration-prop --set size-limit:lots\n"
            + "set-global-configuration-prop --set size-limit:6\n");
    Run failed = dsconfig(args.toArray(String[]::new));
    assertThat(failed.exitCode()).isEqualTo(1);
    assertThat(failed.err()).contains("line 2 failed");
    assertThat(ok("get-global-configuration-prop", "--property", "size-limit", "-s").out())
        .contains("size-limit\t5");
  }

  @Test
  void everySubcommandHasHelp() {
    CommandLine cli = new CommandLine(DsConfig.command());
    assertThat(cli.getSubcommands()).hasSizeGreaterThanOrEqualTo(37);
    for (String name : cli.getSubcommands().keySet()) {
      Run help = dsconfig(name, "--help");
      assertThat(help.exitCode()).as(name).isZero();
      assertThat(help.out()).as(name).startsWith("Usage: dsconfig " + name);
    }
  }
}
