package io.rockds.replication;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a member of this server's group runs a group restored from a backup since ({@link
 * GroupGeneration#replaces}): then this server holds the data from before the restore and was not
 * reset, and must leave its group, or it and other such servers would form the old group again (a
 * majority of its members) and take writes apart from the restored group.
 */
final class GroupReplacement {
  private static final Logger LOG = LoggerFactory.getLogger(GroupReplacement.class);

  private GroupReplacement() {}

  /**
   * Asks each of {@code members} but {@code self}, once within {@code timeout}, which groups it is
   * a member of; returns why this server must leave {@code group}, or null when no member answers
   * with a group that replaced it.
   */
  static String find(
      RaftGroupId group, Collection<RaftPeer> members, String self, Duration timeout) {
    for (RaftPeer member : members) {
      String name = RaftPeerIds.name(member.getId());
      if (name.equals(self)) {
        continue;
      }
      try {
        for (RaftGroupId other : GroupDiscovery.memberships(member, timeout)) {
          if (GroupGeneration.replaces(other, group)) {
            return reason(self, group, name, other);
          }
        }
      } catch (IOException | RuntimeException e) {
        LOG.debug("cannot ask {} for its replication groups: {}", name, e.toString());
      }
    }
    return null;
  }

  private static String reason(String self, RaftGroupId group, String member, RaftGroupId newer) {
    return "the replication group of "
        + self
        + " ("
        + group.getUuid()
        + ", generation "
        + GroupGeneration.generation(group)
        + ") was replaced by a group restored from a backup: its member "
        + member
        + " runs the group "
        + newer.getUuid()
        + " (generation "
        + GroupGeneration.generation(newer)
        + "). "
        + self
        + " left its group: its data predates the restore; writes and reads with the"
        + " read-after-write control are refused with unavailable (52). Stop it, empty it"
        + " (dsrepl reset-server), start it and add it to the new group (dsrepl add-server)";
  }
}
