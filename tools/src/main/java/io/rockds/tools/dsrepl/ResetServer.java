package io.rockds.tools.dsrepl;

import io.rockds.layout.ServerLock;
import io.rockds.server.replication.GroupRestore;
import io.rockds.tools.InstanceOption;
import io.rockds.tools.QuietOption;
import io.rockds.tools.ToolRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code dsrepl reset-server --instance DIR}: empties a stopped server of a replication group so
 * that it joins its group again as a new member, as the restore of a group from one server's backup
 * needs of the other servers (docs/replication.md).
 */
@Command(
    name = "reset-server",
    description =
        "Deletes the data of a stopped server of a replication group (its backends' databases,"
            + " its replication log and snapshots) so that it joins the group as a new member at"
            + " its next start and receives the group's data once added (dsrepl add-server);"
            + " its own settings stay.")
final class ResetServer implements Callable<Integer> {
  @Mixin InstanceOption instanceDir;

  @Mixin QuietOption output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    try (ServerLock lock = ServerLock.acquire(instanceDir.instance())) {
      GroupRestore.resetMember(
          instanceDir.instance(),
          line -> {
            if (!output.quiet()) {
              out.println(line);
              out.flush();
            }
          });
    } catch (IOException e) {
      if (ServerLock.isHeld(instanceDir.instance())) {
        throw new IllegalStateException(
            "the server of " + instanceDir.directory() + " is running: stop it with bin/stop-ds",
            e);
      }
      throw e;
    }
    return ToolRunner.EXIT_SUCCESS;
  }
}
