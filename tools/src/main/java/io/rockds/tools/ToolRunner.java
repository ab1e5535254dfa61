package io.rockds.tools;

import io.rockds.server.BuildInfo;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Runs a picocli command the way every RockDS tool behaves (the exit codes are in the README):
 *
 * <ul>
 *   <li>0: success;
 *   <li>1: the tool failed; it prints one line, {@code <tool>: <reason>}, and no stack trace
 *       ({@code ROCKDS_DEBUG=1} prints it too);
 *   <li>2: bad usage (an unknown or missing option), with the usage.
 * </ul>
 *
 * Every command and subcommand gets {@link StandardOptions} (help, version) here, in one place.
 */
public final class ToolRunner {
  public static final int EXIT_SUCCESS = 0;
  public static final int EXIT_FAILURE = 1;
  public static final int EXIT_USAGE = 2;

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
    addStandardOptions(cli);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          String message = e.getMessage() != null ? e.getMessage() : e.toString();
          commandLine.getErr().println(commandLine.getCommandName() + ": " + message);
          if (System.getenv("ROCKDS_DEBUG") != null) {
            e.printStackTrace(commandLine.getErr());
          }
          commandLine.getErr().flush();
          return EXIT_FAILURE;
        });
    return cli;
  }

  private static void addStandardOptions(CommandLine cli) {
    cli.addMixin("standardOptions", new StandardOptions());
    cli.getCommandSpec().versionProvider(() -> new String[] {BuildInfo.current().describe()});
    for (CommandLine subcommand : cli.getSubcommands().values()) {
      addStandardOptions(subcommand);
    }
  }
}
