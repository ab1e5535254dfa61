package io.rockds.replication;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;

/**
 * Hands the log entries of the leader's own clients to its Raft server directly. Through a Ratis
 * client they went over gRPC on loopback to the same process (serialised, sent, received, parsed
 * and answered the same way back): in a group of one, the gRPC threads took a quarter of the
 * server's CPU per write.
 *
 * <p>Only a leader ready to append takes them (a follower, or a leader of a new term that has not
 * committed an entry of its term yet, leaves them to the client, which finds the leader and
 * retries). A leader that answers "not the leader" to an entry it took may have appended it before
 * stepping down, and a new leader may still commit it: such an entry is not sent again (the
 * client's retries are safe because Ratis recognises them by their call id; a new request would be
 * a second write), the write is answered unavailable and may still be applied.
 */
final class LeaderSubmission {
  private final RaftServer server;
  private final RaftGroupId groupId;
  private final ClientId clientId = ClientId.randomId();
  private final AtomicLong callIds = new AtomicLong();

  LeaderSubmission(RaftServer server, RaftGroupId groupId) {
    this.server = server;
    this.groupId = groupId;
  }

  /** The leader's answer to the entry, or null when this server is not a ready leader. */
  RaftClientReply submit(Message entry, long timeoutNanos)
      throws IOException, InterruptedException, TimeoutException {
    if (server == null || !server.getDivision(groupId).getInfo().isLeaderReady()) {
      return null;
    }
    RaftClientRequest request =
        RaftClientRequest.newBuilder()
            .setClientId(clientId)
            .setServerId(server.getId())
            .setGroupId(groupId)
            .setCallId(callIds.incrementAndGet())
            .setMessage(entry)
            .setType(RaftClientRequest.writeRequestType())
            .build();
    CompletableFuture<RaftClientReply> reply = server.submitClientRequestAsync(request);
    try {
      return reply.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
  }
}
