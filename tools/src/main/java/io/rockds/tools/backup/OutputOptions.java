package io.rockds.tools.backup;

import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options backup and restore share beside their own: quiet, help and version (-h is the host name). */
final class OutputOptions {
  @Option(names = "--quiet", description = "Print nothing but errors.")
  boolean quiet;

  @Option(names = {"-H", "--help", "-?"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print the version and exit.")
  boolean version;

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /** Prints a progress line unless quiet. */
  void say(String line) {
    if (!quiet) {
      out().println(line);
      out().flush();
    }
  }
}
