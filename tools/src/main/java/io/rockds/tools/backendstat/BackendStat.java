package io.rockds.tools.backendstat;

import io.rockds.layout.Instance;
import io.rockds.tools.InstanceCommand;
import io.rockds.tools.ToolRunner;
import io.rockds.tools.advisor.SuggestIndexes;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bin/backendstat}: OpenDJ's backend inspection tool, with its subcommands and option
 * letters. Unlike OpenDJ's, it also runs against a live server, reading a consistent read-only view
 * of the database, and says on stderr which view it used.
 */
@Command(
    name = "backendstat",
    description =
        "Shows the backends, indexes and raw RocksDB column families of an instance, stopped or running.",
    subcommands = {
      ListBackends.class,
      ListBaseDns.class,
      ListIndexes.class,
      ShowIndexStatus.class,
      DumpIndex.class,
      ListRawDbs.class,
      DumpRawDb.class,
      SuggestIndexes.class
    })
public final class BackendStat implements Runnable, InstanceCommand {
  @Option(
      names = "--instance",
      scope = picocli.CommandLine.ScopeType.INHERIT,
      description = "Instance directory (default: ${DEFAULT-VALUE}).")
  Path instance = Path.of("instance");

  @Option(
      names = "--script-friendly",
      scope = picocli.CommandLine.ScopeType.INHERIT,
      description = "Tables as tab-separated rows without headings or totals, for scripts.")
  boolean scriptFriendly;

  @Spec CommandSpec spec;

  public static void main(String[] args) {
    System.exit(ToolRunner.run(new BackendStat(), args));
  }

  @Override
  public Instance instance() {
    return new Instance(instance);
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a subcommand is required");
  }
}
