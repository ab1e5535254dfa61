package io.rockds.replication;

import java.io.IOException;
import java.time.Duration;
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
    RaftProperties properties = new RaftProperties();
    Duration timeout = settings.electionTimeout().multipliedBy(2);
    RaftClientConfigKeys.Rpc.setRequestTimeout(
        properties, TimeDuration.valueOf(timeout.toMillis(), TimeUnit.MILLISECONDS));
    for (Peer peer : settings.peers()) {
      if (peer.id().equals(settings.serverId())) {
        continue;
      }
      RaftPeer server = ReplicationNode.raftPeer(peer);
      try (RaftClient client =
          RaftClient.newBuilder()
              .setClientId(ClientId.randomId())
              .setRaftGroup(RaftGroup.valueOf(GroupStorage.FIRST_GROUP, server))
              .setProperties(properties)
              .setRetryPolicy(RetryPolicies.noRetry())
              .build()) {
        GroupManagementApi groups = client.getGroupManagementApi(server.getId());
        for (RaftGroupId group : groups.list().getGroupIds()) {
          // A server waiting to be added runs the group too, knowing no member: not an answer.
          if (groups.info(group).getGroup().getPeer(server.getId()) != null) {
            LOG.info("joining the replication group {} of {}", group, peer.id());
            return group;
          }
        }
      } catch (IOException | RuntimeException e) {
        LOG.info("cannot ask {} for its replication group: {}", peer.id(), e.toString());
      }
    }
    return GroupStorage.FIRST_GROUP;
  }
}
