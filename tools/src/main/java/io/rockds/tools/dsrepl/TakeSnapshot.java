package io.rockds.tools.dsrepl;

import com.unboundid.ldap.sdk.Attribute;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code dsrepl snapshot}: the server takes a replication snapshot now and purges its log. */
@Command(
    name = "snapshot",
    description =
        "Takes a replication snapshot (RocksDB checkpoints of the backends) on the server now and"
            + " purges its replication log behind it.")
final class TakeSnapshot extends GroupTask {
  @Override
  String objectClass() {
    return "ds-task-replication-snapshot";
  }

  @Override
  List<Attribute> attributes() {
    return List.of();
  }
}
