package io.rockds.tools.rebuild;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.tools.task.ServerTask;
import java.io.PrintWriter;
import java.util.List;

/**
 * Rebuilds indexes through a running server: runs an OpenDJ rebuild task ({@code objectClass:
 * ds-task-rebuild}) and follows it ({@link ServerTask}). The server keeps serving, reads and writes
 * included, while it rebuilds.
 */
final class OnlineRebuild {
  private final ServerTask tasks;

  OnlineRebuild(LDAPConnection connection, PrintWriter out, boolean quiet) {
    this.tasks = new ServerTask(connection, out, quiet);
  }

  /**
   * Schedules the task and waits for it; returns its final {@code ds-task-state}.
   *
   * @param indexes {@code ds-task-rebuild-index} values: attributes, index names, {@code
   *     rebuildAll} or {@code rebuildDegraded}
   */
  String run(DN base, List<String> indexes) throws LDAPException, InterruptedException {
    DN task = ServerTask.newTaskDn("rebuild");
    return tasks
        .run(
            new Entry(
                task,
                new Attribute("objectClass", "top", "ds-task", "ds-task-rebuild"),
                new Attribute("ds-task-id", task.getRDN().getAttributeValues()[0]),
                new Attribute("ds-task-rebuild-base-dn", base.toString()),
                new Attribute("ds-task-rebuild-index", indexes)),
            "rebuild-index")
        .getAttributeValue("ds-task-state");
  }
}
