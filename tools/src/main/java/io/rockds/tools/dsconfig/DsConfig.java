package io.rockds.tools.dsconfig;

import io.rockds.tools.ToolRunner;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code bin/dsconfig}: reads and changes the configuration of a RockDS server, with OpenDJ's
 * subcommands and options, e.g.
 * {@code dsconfig -D "cn=Directory Manager" -w secret -h localhost -p 1389 -n create-backend-index
 * --backend-name userRoot --index-name sn --set index-type:equality}. Without a subcommand, in a
 * terminal and without {@code -n}, it offers a menu.
 */
@Command(name = "dsconfig", sortOptions = false,
    description = "Reads and changes the configuration of a RockDS server over LDAP, or offline.")
public final class DsConfig implements Callable<Integer> {
  @Mixin ConnectionOptions connection;

  @Spec CommandSpec spec;

  /** The whole command: global options and every generated subcommand. */
  public static CommandSpec command() {
    DsConfig tool = new DsConfig();
    CommandSpec command = CommandSpec.forAnnotatedObject(tool);
    for (CommandSpec subcommand : Subcommand.all(tool.connection)) {
      command.addSubcommand(subcommand.name(), subcommand);
    }
    return command;
  }

  public static void main(String[] args) {
    System.exit(ToolRunner.run(command(), args));
  }

  @Override
  public Integer call() {
    if (System.console() == null || connection.noPrompt) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "a subcommand is required when not run interactively (see dsconfig --help)");
    }
    PrintWriter out = spec.commandLine().getOut();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    return new InteractiveMenu(spec.commandLine(), in, out).run();
  }
}
