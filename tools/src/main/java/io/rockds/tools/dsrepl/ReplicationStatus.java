package io.rockds.tools.dsrepl;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import io.rockds.config.ConfigStore;
import io.rockds.config.ReplicationConfig;
import io.rockds.tools.InstanceOption;
import io.rockds.tools.LdapConnectionOptions;
import io.rockds.tools.TextTable;
import io.rockds.tools.ToolRunner;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dsrepl status}: over LDAP, the server's {@code cn=Replication,cn=monitor} (its role, term,
 * commit and applied index, and every member's index and lag); with {@code --instance} alone, the
 * replication configuration of a stopped instance.
 */
@Command(
    name = "status",
    description =
        "Each server of the group with its role, replicated index and lag (over LDAP), or the"
            + " configured group of a stopped instance (--instance).")
final class ReplicationStatus implements Callable<Integer> {
  static final String MONITOR_DN = "cn=Replication,cn=monitor";

  @Mixin InstanceOption instanceDir;

  @Mixin LdapConnectionOptions connection = new LdapConnectionOptions();

  @Option(
      names = {"-s", "--script-friendly"},
      description = "Tab-separated rows without headings, for scripts.")
  boolean scriptFriendly;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!connection.namesServer()) {
      return offline(out, err);
    }
    Entry monitor;
    // cn=monitor needs the monitor-read privilege: an anonymous read is refused.
    try (LDAPConnection c = connection.connectAndBind(true)) {
      monitor = c.getEntry(MONITOR_DN, "*");
    }
    if (monitor == null) {
      err.println("dsrepl: the server is not a member of a replication group");
      return ToolRunner.EXIT_FAILURE;
    }
    if (!scriptFriendly) {
      out.println(
          "Server "
              + monitor.getAttributeValue("ds-replication-server-id")
              + ": "
              + monitor.getAttributeValue("ds-replication-role")
              + ", leader "
              + monitor.getAttributeValue("ds-replication-leader")
              + ", term "
              + monitor.getAttributeValue("ds-replication-term")
              + ", commit index "
              + monitor.getAttributeValue("ds-replication-commit-index")
              + ", applied index "
              + monitor.getAttributeValue("ds-replication-applied-index")
              + ("false".equals(monitor.getAttributeValue("ds-replication-writable"))
                  ? " (writes are refused)"
                  : ""));
      String refusal = monitor.getAttributeValue("ds-replication-unwritable-reason");
      if (refusal != null) {
        out.println("Why: " + refusal);
      }
    }
    TextTable table = new TextTable("Server", "Role", "Index", "Lag");
    String[] members = monitor.getAttributeValues("ds-replication-member");
    for (String member : members == null ? new String[0] : members) {
      String[] fields = member.split(" ");
      table.row(fields[0], value(fields, "role"), value(fields, "index"), value(fields, "lag"));
    }
    table.print(out, scriptFriendly);
    return ToolRunner.EXIT_SUCCESS;
  }

  /** The {@code name=value} field of a member line. */
  private static String value(String[] fields, String name) {
    for (String field : fields) {
      if (field.startsWith(name + "=")) {
        return field.substring(name.length() + 1);
      }
    }
    return "";
  }

  private int offline(PrintWriter out, PrintWriter err) throws Exception {
    ReplicationConfig config =
        ReplicationConfig.read(ConfigStore.load(instanceDir.instance().configFile()));
    if (config == null) {
      err.println("dsrepl: " + instanceDir.directory() + " is not a member of a replication group");
      return ToolRunner.EXIT_FAILURE;
    }
    if (!scriptFriendly) {
      out.println(
          "Server " + config.serverId() + " (" + config.address() + "), stopped; its group:");
    }
    TextTable table = new TextTable("Server", "Role", "Index", "Lag");
    for (String server : config.bootstrapServers()) {
      table.row(server, "unknown", "", "");
    }
    table.print(out, scriptFriendly);
    return ToolRunner.EXIT_SUCCESS;
  }
}
