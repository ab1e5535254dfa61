package io.rockds.tools;

import picocli.CommandLine;

/**
 * Runs a picocli command the way every RockDS tool behaves: a failure prints one line,
 * {@code <tool>: <reason>}, and exits 1; usage errors exit 2; no stack traces for operators.
 * {@code ROCKDS_DEBUG=1} prints the stack trace too.
 */
public final class ToolRunner {
  private ToolRunner() {}

  public static int run(Object command, String... args) {
    return run(new CommandLine(command), args);
  }

  /** Runs an already built command line (a tool with generated subcommands, or output redirected by a test). */
  public static int run(CommandLine cli, String... args) {
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      String message = e.getMessage() != null ? e.getMessage() : e.toString();
      commandLine.getErr().println(commandLine.getCommandName() + ": " + message);
      if (System.getenv("ROCKDS_DEBUG") != null) {
        e.printStackTrace(commandLine.getErr());
      }
      return 1;
    });
    return cli.execute(args);
  }
}
