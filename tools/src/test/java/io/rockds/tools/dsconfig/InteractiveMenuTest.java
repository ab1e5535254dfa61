package io.rockds.tools.dsconfig;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.config.ConfigStore;
import io.rockds.config.InitialConfig;
import io.rockds.config.ServerConfig;
import io.rockds.config.model.ConfigModel;
import io.rockds.layout.Instance;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The menu builds, shows and runs the same command a script would (here offline, on a stopped
 * instance).
 */
class InteractiveMenuTest {
  @TempDir Path dir;

  @Test
  void menuPromptsForTheSubcommandAndItsOptionsThenRunsIt() throws Exception {
    Instance instance = offlineInstance();
    // global-configuration is choice 1, its set subcommand choice 2; then --set twice and an empty
    // line for each of --set, --add, --remove and --reset.
    String out = menu(instance, "1", "2", "size-limit:42", "time-limit:9", "", "", "", "");
    assertThat(out)
        .contains(
            "dsconfig --offline --instance "
                + instance.root()
                + " -n set-global-configuration-prop --set size-limit:42 --set time-limit:9");
    ServerConfig config = ServerConfig.read(ConfigStore.load(instance.configFile()));
    assertThat(config.global().sizeLimit()).isEqualTo(42);
    assertThat(config.global().timeLimitSeconds()).isEqualTo(9);
  }

  @Test
  void menuReachesTheRootDnPrivileges() throws Exception {
    Instance instance = offlineInstance();
    // Choices follow the order of ConfigModel.ALL; in root-dn, set's choice 2 is one --remove.
    String rootDn = String.valueOf(ConfigModel.ALL.indexOf(ConfigModel.ROOT_DN) + 1);
    String out =
        menu(instance, rootDn, "2", "", "", "default-root-privilege-name:bypass-acl", "", "");
    assertThat(out).contains("-n set-root-dn-prop --remove default-root-privilege-name:bypass-acl");
    ServerConfig config = ServerConfig.read(ConfigStore.load(instance.configFile()));
    assertThat(config.rootDns().get(0).privileges())
        .doesNotContain("bypass-acl")
        .contains("config-read");
  }

  private Instance offlineInstance() throws Exception {
    Instance instance = new Instance(dir.resolve("instance"));
    ConfigStore.create(
            instance.configFile(),
            InitialConfig.entries(
                new InitialConfig.Parameters(
                    new com.unboundid.ldap.sdk.DN("dc=example,dc=com"),
                    "127.0.0.1",
                    0,
                    -1,
                    new com.unboundid.ldap.sdk.DN("cn=Directory Manager"),
                    "{SSHA512}aGFzaA==",
                    false)))
        .save();
    return instance;
  }

  /** Runs the menu on {@code instance} offline with these answers, one a line; its output. */
  private static String menu(Instance instance, String... answers) throws Exception {
    CommandLine cli = new CommandLine(DsConfig.command());
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.parseArgs("--offline", "--instance", instance.root().toString());
    int code =
        new InteractiveMenu(
                cli,
                new BufferedReader(new StringReader(String.join("\n", answers) + "\n")),
                new PrintWriter(out, true))
            .run();
    assertThat(code).as(out.toString()).isZero();
    return out.toString();
  }
}
