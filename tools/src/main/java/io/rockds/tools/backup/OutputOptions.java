package io.rockds.tools.backup;

import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The option backup and restore share beside their own and the standard ones: quiet. */
final class OutputOptions {
  @Option(names = "--quiet", description = "Print nothing but errors.")
  boolean quiet;

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
