package io.rockds.tools;

import picocli.CommandLine.Option;

/**
 * Help and version, the same in every tool as in OpenDJ's: {@code --help}, {@code -H} or {@code -?}
 * prints the usage, {@code -V}/{@code --version} the version ({@link io.rockds.server.BuildInfo}).
 * {@link ToolRunner} mixes them into every command and subcommand, which leaves {@code -h} to the
 * host name of the tools that connect.
 */
public final class StandardOptions {
  @Option(
      names = {"-H", "--help", "-?"},
      usageHelp = true,
      description = "Show this help and exit.")
  boolean help;

  @Option(
      names = {"-V", "--version"},
      versionHelp = true,
      description = "Print the version and exit.")
  boolean version;
}
