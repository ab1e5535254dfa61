package io.rockds.tools.ldif;

import picocli.CommandLine.Option;

/** {@code -Q, --quiet}, as import-ldif and export-ldif both take it. */
final class QuietOption {
  @Option(
      names = {"-Q", "--quiet"},
      description = "Print nothing but errors.")
  boolean quiet;
}
