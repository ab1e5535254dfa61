package io.rockds.tools.dsrepl;

import com.unboundid.ldap.sdk.Attribute;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dsrepl remove-server --replicationServer HOST:PORT}: a member leaves the group. */
@Command(
    name = "remove-server",
    description =
        "Removes a server from the replication group (stop it afterwards); the group then needs a"
            + " majority of the remaining servers.")
final class RemoveServer extends GroupTask {
  @Option(
      names = "--replicationServer",
      required = true,
      paramLabel = "HOST:PORT",
      description = "The replication listener of the server to remove.")
  String server;

  @Override
  String objectClass() {
    return "ds-task-replication-remove-server";
  }

  @Override
  List<Attribute> attributes() {
    return List.of(new Attribute("ds-task-replication-server", server));
  }
}
