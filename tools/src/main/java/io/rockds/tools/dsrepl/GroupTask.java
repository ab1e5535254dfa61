package io.rockds.tools.dsrepl;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import io.rockds.tools.LdapConnectionOptions;
import io.rockds.tools.QuietOption;
import io.rockds.tools.ToolRunner;
import io.rockds.tools.task.ServerTask;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A {@code dsrepl} subcommand that changes the replication group through a running member: it
 * schedules a replication task ({@code cn=Scheduled Tasks,cn=tasks}) and follows it to its end.
 */
abstract class GroupTask implements Callable<Integer> {
  @Mixin LdapConnectionOptions connection = new LdapConnectionOptions();

  @Mixin QuietOption output;

  @Spec CommandSpec spec;

  /** The task's object class, e.g. {@code ds-task-replication-add-server}. */
  abstract String objectClass();

  /** The task's own attributes. */
  abstract List<Attribute> attributes();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    DN dn = ServerTask.newTaskDn("replication");
    List<Attribute> attributes = new ArrayList<>();
    attributes.add(new Attribute("objectClass", "top", "ds-task", objectClass()));
    attributes.add(new Attribute("ds-task-id", dn.getRDN().getAttributeValues()[0]));
    attributes.addAll(attributes());
    Entry ended;
    try (LDAPConnection c = connection.connectAndBind(true)) {
      ended = new ServerTask(c, out, output.quiet()).run(new Entry(dn, attributes), spec.name());
    }
    String state = ended.getAttributeValue("ds-task-state");
    if (!ServerTask.COMPLETED.equals(state)) {
      err.println("dsrepl: the " + spec.name() + " task ended " + state);
      return ToolRunner.EXIT_FAILURE;
    }
    return ToolRunner.EXIT_SUCCESS;
  }
}
