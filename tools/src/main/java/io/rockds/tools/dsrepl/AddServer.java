package io.rockds.tools.dsrepl;

import com.unboundid.ldap.sdk.Attribute;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dsrepl add-server --replicationServer HOST:PORT}: the new server (set up with the group's
 * members as its bootstrap servers, and running) joins; it receives the leader's snapshot and log
 * before it counts in the majority.
 */
@Command(
    name = "add-server",
    description =
        "Adds a running server, set up with this group's servers as its bootstrap servers, to the"
            + " replication group; returns once it caught up and is a member.")
final class AddServer extends GroupTask {
  @Option(
      names = "--replicationServer",
      required = true,
      paramLabel = "HOST:PORT",
      description = "The replication listener of the server to add.")
  String server;

  @Override
  String objectClass() {
    return "ds-task-replication-add-server";
  }

  @Override
  List<Attribute> attributes() {
    return List.of(new Attribute("ds-task-replication-server", server));
  }
}
