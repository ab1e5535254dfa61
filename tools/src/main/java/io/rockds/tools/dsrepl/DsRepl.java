package io.rockds.tools.dsrepl;

import io.rockds.tools.ToolRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bin/dsrepl}: the replication group of a server, as ForgeRock DS's tool of that name. */
@Command(
    name = "dsrepl",
    description = "Shows and changes the replication group of a server.",
    subcommands = {
      ReplicationStatus.class,
      AddServer.class,
      RemoveServer.class,
      TakeSnapshot.class,
      ResetServer.class
    })
public final class DsRepl implements Runnable {
  @Spec CommandSpec spec;

  public static void main(String[] args) {
    System.exit(ToolRunner.run(new DsRepl(), args));
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "a subcommand is required");
  }
}
