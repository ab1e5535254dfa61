package io.rockds.tools;

import picocli.CommandLine.Option;

/**
 * {@code -Q, --quiet}, declared once for the tools that then print nothing but errors (import-ldif,
 * export-ldif, dsrepl's subcommands). Mixed into a command with {@code @Mixin}.
 */
public final class QuietOption {
  @Option(
      names = {"-Q", "--quiet"},
      description = "Print nothing but errors.")
  boolean quiet;

  /** True when the command line asks for quiet. */
  public boolean quiet() {
    return quiet;
  }
}
