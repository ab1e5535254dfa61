package io.rockds.server.task;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.replication.ReplicatedWrites;
import java.util.function.BooleanSupplier;

/**
 * A change to the replication group, as {@code dsrepl} schedules it: {@code
 * ds-task-replication-add-server} or {@code ds-task-replication-remove-server} with the member's
 * replication address in {@code ds-task-replication-server} (HOST:PORT), or {@code
 * ds-task-replication-snapshot} (a snapshot now, the log purged behind it). Runs on any member; the
 * group's leader carries out a membership change once the added server caught up.
 */
final class ReplicationTask extends ScheduledTask {
  static final String ADD_SERVER = "ds-task-replication-add-server";
  static final String REMOVE_SERVER = "ds-task-replication-remove-server";
  static final String SNAPSHOT = "ds-task-replication-snapshot";
  static final String SERVER = "ds-task-replication-server";

  /** Set once a snapshot is taken: its log index. */
  static final String SNAPSHOT_INDEX = "ds-task-replication-snapshot-index";

  static final String PRIVILEGE = "config-write";

  private final ReplicatedWrites replication;
  private final String action;
  private final String server;
  private volatile long snapshotIndex = -1;

  private ReplicationTask(Entry request, ReplicatedWrites replication, String action, String server)
      throws LDAPException {
    super(request);
    this.replication = replication;
    this.action = action;
    this.server = server;
  }

  /** Whether the entry asks for a replication task. */
  static boolean handles(Entry request) {
    return request.hasObjectClass(ADD_SERVER)
        || request.hasObjectClass(REMOVE_SERVER)
        || request.hasObjectClass(SNAPSHOT);
  }

  /** Checks a task entry as added: a replicated server, and a member's address when one is due. */
  static ReplicationTask of(Entry request, ReplicatedWrites replication) throws LDAPException {
    if (replication == null) {
      throw unwilling("this server is not a member of a replication group");
    }
    String action =
        request.hasObjectClass(ADD_SERVER)
            ? ADD_SERVER
            : request.hasObjectClass(REMOVE_SERVER) ? REMOVE_SERVER : SNAPSHOT;
    String server = request.getAttributeValue(SERVER);
    if (!action.equals(SNAPSHOT) && (server == null || server.isBlank())) {
      throw unwilling("the task needs " + SERVER + " (HOST:PORT of the replication listener)");
    }
    return new ReplicationTask(request, replication, action, server == null ? null : server.trim());
  }

  @Override
  String kind() {
    return "Replication";
  }

  @Override
  void execute(BooleanSupplier stopping) throws LDAPException {
    switch (action) {
      case ADD_SERVER -> {
        log("Adding " + server + " to the replication group; it catches up before it counts");
        replication.addServer(server);
        log(server + " is a member of the replication group");
      }
      case REMOVE_SERVER -> {
        log("Removing " + server + " from the replication group");
        replication.removeServer(server);
        log(server + " left the replication group; stop it");
      }
      default -> {
        snapshotIndex = replication.takeSnapshot();
        log("Snapshot taken at log index " + snapshotIndex + "; the log is purged behind it");
      }
    }
  }

  @Override
  void describe(Entry entry) {
    if (snapshotIndex >= 0) {
      entry.setAttribute(SNAPSHOT_INDEX, Long.toString(snapshotIndex));
    }
  }

  private static LDAPException unwilling(String message) {
    return ScheduledTask.unwilling("replication", message);
  }
}
