package io.rockds.tools;

import io.rockds.server.BuildInfo;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Runs a picocli command the way every RockDS tool behaves: a failure prints one line,
 * {@code <tool>: <reason>}, and exits 1; usage errors exit 2; no stack traces for operators.
 * {@code ROCKDS_DEBUG=1} prints the stack trace too.
 */
public final class ToolRunner {
  private ToolRunner() {}

  public static int run(Object command, String... args) {
    return commandLine(command).execute(args);
  }

  /** Runs with the given output streams, as tests capture them. */
  public static int run(Object command, PrintWriter out, PrintWriter err, String... args) {
    CommandLine cli = commandLine(command);
    cli.setOut(out);
    cli.setErr(err);
    return cli.execute(args);
  }

  private static CommandLine commandLine(Object command) {
    CommandLine cli = new CommandLine(command);
    printBuildOnVersion(cli);
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      String message = e.getMessage() != null ? e.getMessage() : e.toString();
      commandLine.getErr().println(commandLine.getCommandName() + ": " + message);
      if (System.getenv("ROCKDS_DEBUG") != null) {
        e.printStackTrace(commandLine.getErr());
      }
      commandLine.getErr().flush();
      return 1;
    });
    return cli;
  }

  /** {@code --version} of the tool and of its subcommands: the RockDS version and git commit. */
  private static void printBuildOnVersion(CommandLine cli) {
    cli.getCommandSpec().versionProvider(() -> new String[] {BuildInfo.current().describe()});
    cli.getSubcommands().values().forEach(ToolRunner::printBuildOnVersion);
  }
}
