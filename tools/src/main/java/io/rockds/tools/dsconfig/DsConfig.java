package io.rockds.tools.dsconfig;

import io.rockds.tools.ToolRunner;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/dsconfig}: reads and changes the configuration of a RockDS server, with OpenDJ's
 * subcommands and options, e.g. {@code dsconfig -D "cn=Directory Manager" -w secret -h localhost -p
 * 1389 -n create-backend-index --backend-name userRoot --index-name sn --set index-type:equality}.
 * Without a subcommand, in a terminal and without {@code -n}, it offers a menu.
 */
@Command(
    name = "dsconfig",
    sortOptions = false,
    description = "Reads and changes the configuration of a RockDS server over LDAP, or offline.")
public final class DsConfig implements Callable<Integer> {
  @Mixin ConnectionOptions connection;

  @Option(
      names = {"-F", "--batchFilePath"},
      paramLabel = "<file>",
      description =
          "Runs the subcommands of this file, one per line (# comments, \\ continues a line), with the"
              + " connection options given here; stops at the first that fails.")
  Path batchFile;

  @Spec CommandSpec spec;

  /** The whole command: global options and every generated subcommand. */
  public static CommandSpec command() {
    DsConfig tool = new DsConfig();
    CommandSpec command = CommandSpec.forAnnotatedObject(tool);
    for (CommandSpec subcommand : Subcommand.all(tool.connection)) {
      command.addSubcommand(subcommand.name(), subcommand);
    }
    command.addSubcommand(
        "list-properties", CommandSpec.forAnnotatedObject(new ListProperties(tool.connection)));
    return command;
  }

  public static void main(String[] args) {
    System.exit(ToolRunner.run(command(), args));
  }

  @Override
  public Integer call() throws IOException {
    if (batchFile != null) {
      return runBatch();
    }
    if (System.console() == null || connection.noPrompt) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "a subcommand is required when not run interactively (see dsconfig --help)");
    }
    PrintWriter out = spec.commandLine().getOut();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    return new InteractiveMenu(spec.commandLine(), in, out).run();
  }

  /**
   * Runs each command of the batch file with this invocation's other options; the first failure
   * ends it.
   */
  private int runBatch() throws IOException {
    List<String> global = new ArrayList<>(spec.commandLine().getParseResult().originalArgs());
    for (int i = 0; i < global.size(); i++) {
      if (global.get(i).equals("-F") || global.get(i).equals("--batchFilePath")) {
        global.subList(i, Math.min(i + 2, global.size())).clear();
        break;
      }
      if (global.get(i).startsWith("--batchFilePath=")) {
        global.remove(i);
        break;
      }
    }
    PrintWriter err = spec.commandLine().getErr();
    for (BatchFile.Command command : BatchFile.read(batchFile)) {
      List<String> args = new ArrayList<>(global);
      if (!args.contains("-n") && !args.contains("--no-prompt")) {
        args.add("-n");
      }
      args.addAll(command.words());
      int exit = spec.commandLine().execute(args.toArray(String[]::new));
      if (exit != 0) {
        err.println(
            "dsconfig: "
                + batchFile
                + " line "
                + command.line()
                + " failed (exit "
                + exit
                + "): "
                + String.join(" ", command.words()));
        err.flush();
        return exit;
      }
    }
    return 0;
  }
}
