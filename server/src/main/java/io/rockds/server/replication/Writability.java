package io.rockds.server.replication;

import io.rockds.replication.GroupStatus;

/**
 * Whether a replicated server can take writes, as {@code /health} and {@code cn=monitor} report it:
 * it can while it is a member of the group and knows a leader, which a majority of the group
 * elected and still follows.
 */
public final class Writability {
  private Writability() {}

  /**
   * Why a server with this view of its group refuses writes, or null when it takes them.
   *
   * @param group the group as the server sees it; null when it cannot tell
   */
  public static String refusal(GroupStatus group) {
    if (group == null) {
      return "the replication group's state is unknown (replication not started)";
    }
    if (group.replaced()) {
      return group.applyFailure();
    }
    if (!group.member()) {
      return group.serverId()
          + " is not a member of its replication group (it was removed: stop it; or it waits for"
          + " dsrepl add-server); writes are refused with unavailable (52), reads are served from"
          + " its copy (applied index "
          + group.appliedIndex()
          + ")";
    }
    if (group.hasLeader()) {
      return null;
    }
    return "no leader: "
        + group.serverId()
        + " ("
        + group.role()
        + ", term "
        + group.term()
        + ") cannot reach a majority of the "
        + group.members().size()
        + " servers of its replication group; writes are refused with unavailable (52), reads are"
        + " served from its copy (applied index "
        + group.appliedIndex()
        + ")";
  }
}
