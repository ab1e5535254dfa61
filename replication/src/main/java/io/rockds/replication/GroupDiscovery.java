package io.rockds.replication;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.api.GroupManagementApi;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which group a joining member joins at its first start: the group its bootstrap servers are
 * members of. A group set up is {@link GroupStorage#FIRST_GROUP}; one started again from a backup
 * has an ID of its own, which only its members know.
 */
final class GroupDiscovery {
  private static final Logger LOG = LoggerFactory.getLogger(GroupDiscovery.class);

  private GroupDiscovery() {}

  /**
   * Asks each bootstrap server but this one, once, for the group it is a member of; {@link
   * GroupStorage#FIRST_GROUP} when none answers (none runs yet: the group they will form).
   */
  static RaftGroupId find(ReplicationSettings settings) {
    Duration timeout = settings.electionTimeout().multipliedBy(2);
    for (Peer peer : settings.peers()) {
      if (peer.id().equals(settings.serverId())) {
        continue;
      }
      try {
        List<RaftGroupId> groups = memberships(ReplicationNode.raftPeer(peer), timeout);
        if (!groups.isEmpty()) {
          LOG.info("joining the replication group {} of {}", groups.get(0), peer.id());
          return groups.get(0);
        }
      } catch (IOException | RuntimeException e) {
        LOG.info("cannot ask {} for its replication group: {}", peer.id(), e.toString());
      }
    }
    return GroupStorage.FIRST_GROUP;
  }

  /**
   * The groups {@code server} runs as a member, asked once through Ratis' group management API
   * within {@code timeout}. A server waiting to be added runs its group knowing no member: that
   * group is not among them.
   */
  static List<RaftGroupId> memberships(RaftPeer server, Duration timeout) throws IOException {
    RaftProperties properties = new RaftProperties();
    RaftClientConfigKeys.Rpc.setRequestTimeout(
        properties, TimeDuration.valueOf(timeout.toMillis(), TimeUnit.MILLISECONDS));
    try (RaftClient client =
        RaftClient.newBuilder()
            .setClientId(ClientId.randomId())
            .setRaftGroup(RaftGroup.valueOf(GroupStorage.FIRST_GROUP, server))
            .setProperties(properties)
            .setRetryPolicy(RetryPolicies.noRetry())
            .build()) {
      GroupManagementApi groups = client.getGroupManagementApi(server.getId());
      List<RaftGroupId> memberships = new ArrayList<>();
      for (RaftGroupId group : groups.list().getGroupIds()) {
        if (groups.info(group).getGroup().getPeer(server.getId()) != null) {
          memberships.add(group);
        }
      }
      return memberships;
    }
  }
}
