package io.rockds.replication;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.retry.RequestTypeDependentRetryPolicy;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.proto.RaftProtos.RaftClientRequestProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.protocol.exceptions.ReconfigurationInProgressException;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of the replication group: a Ratis server (log, elections, state machine) and a client
 * that submits records from this member, which Ratis routes to the leader. A record submitted here
 * is answered once it is committed and this member applied it too.
 */
public final class ReplicationNode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationNode.class);

  private final ReplicationSettings settings;
  private final RaftGroupId groupId;

  /** Null when this member found its group replaced before it started ({@link #leave}). */
  private final RaftServer server;

  private final RaftClient client;
  private final AppliedIndex appliedIndex;
  private final RecordStateMachine stateMachine;
  private final Consumer<String> left;

  /** Looks for a group restored from a backup on the members ({@link #watchForReplacement}). */
  private final ScheduledExecutorService watch =
      Executors.newSingleThreadScheduledExecutor(new DaemonThreads("rockds-replication-watch"));

  /** Why this member left its group, replaced by a group restored from a backup; null if not. */
  private volatile String replaced;

  private final GroupCommit groupCommit = new GroupCommit(this::send);

  private final LeaderSubmission here;

  private ReplicationNode(
      ReplicationSettings settings,
      RaftGroupId groupId,
      RaftServer server,
      RaftClient client,
      AppliedIndex appliedIndex,
      RecordStateMachine stateMachine,
      Consumer<String> left) {
    this.settings = settings;
    this.groupId = groupId;
    this.server = server;
    this.client = client;
    this.appliedIndex = appliedIndex;
    this.stateMachine = stateMachine;
    this.left = left;
    this.here = new LeaderSubmission(server, groupId);
  }

  /**
   * The applier's checkpoint inside the newest snapshot this member holds in {@code directory} (its
   * {@link ReplicationSettings#directory()}), or null when it holds none: what the server installs
   * before starting when its state is behind it ({@link RecordApplier#install}).
   */
  public static Path latestSnapshot(Path directory) throws IOException {
    return GroupStorage.latestSnapshot(directory);
  }

  /**
   * Starts this member: replays the log after the applier's position, then takes part in the group.
   * Returns at once; a leader is elected once a majority runs.
   *
   * <p>A member of a group that a group restored from a backup replaced ({@link GroupReplacement})
   * does not take part in it, or leaves it once it learns of the replacement: it refuses writes and
   * linearizable reads as unavailable from then on, and {@code left} hears why.
   */
  public static ReplicationNode start(
      ReplicationSettings settings, RecordApplier applier, Consumer<String> left)
      throws IOException {
    Files.createDirectories(settings.directory());
    RaftProperties properties = properties(settings);
    List<RaftPeer> peers = new ArrayList<>();
    for (Peer p : settings.peers()) {
      peers.add(raftPeer(p));
    }
    // Later starts find the group in the storage; a joining member asks its bootstrap servers.
    RaftGroupId groupId = GroupStorage.stored(settings.directory());
    boolean firstStart = groupId == null;
    if (firstStart) {
      groupId = settings.joining() ? GroupDiscovery.find(settings) : GroupStorage.FIRST_GROUP;
    }
    RaftGroup group = RaftGroup.valueOf(groupId, peers);
    // A joining member starts knowing no members, so that it stands for no election (the leader
    // would tell a candidate outside its configuration to shut down) until the leader adds it.
    // Later starts recover the members from the log and snapshots.
    RaftGroup initial = (settings.joining() && firstStart) ? RaftGroup.valueOf(groupId) : group;
    // Asked before the Raft server starts, so that it never votes in a group replaced already.
    String replaced =
        firstStart
            ? null
            : GroupReplacement.find(
                groupId,
                membersToAsk(settings),
                settings.serverId(),
                settings.electionTimeout().multipliedBy(2));
    AppliedIndex appliedIndex = new AppliedIndex();
    RecordStateMachine stateMachine = new RecordStateMachine(applier, appliedIndex);
    RaftServer server = null;
    if (replaced == null) {
      server =
          RaftServer.newBuilder()
              .setServerId(RaftPeerIds.of(settings.serverId()))
              .setGroup(initial)
              .setProperties(properties)
              .setStateMachine(stateMachine)
              .setOption(RaftStorage.StartupOption.RECOVER)
              .build();
      server.start();
    }
    RaftClient client;
    try {
      client =
          RaftClient.newBuilder()
              .setClientId(ClientId.randomId())
              .setRaftGroup(group)
              .setProperties(properties)
              .setRetryPolicy(retryPolicy(settings))
              .build();
    } catch (RuntimeException e) {
      if (server != null) {
        server.close();
      }
      throw e;
    }
    ReplicationNode node =
        new ReplicationNode(settings, groupId, server, client, appliedIndex, stateMachine, left);
    if (replaced != null) {
      node.leave(replaced);
    } else {
      node.watchForReplacement();
    }
    return node;
  }

  /**
   * Whom a member asks at its start whether its group was replaced: the members its storage last
   * recorded, or the bootstrap servers when it recorded none.
   */
  private static List<RaftPeer> membersToAsk(ReplicationSettings settings) throws IOException {
    List<RaftPeer> members = GroupStorage.lastKnownPeers(settings.directory());
    return members.isEmpty()
        ? settings.peers().stream().map(ReplicationNode::raftPeer).toList()
        : members;
  }

  /**
   * How often a member asks the others whether a group restored from a backup replaced its own: a
   * server of the group before that was started again without being reset takes writes in the old
   * group (with another such server) at most that long after a member of the new group answers.
   */
  private static Duration watchInterval(ReplicationSettings settings) {
    Duration twoElections = settings.electionTimeout().multipliedBy(2);
    return twoElections.compareTo(MIN_WATCH_INTERVAL) > 0 ? twoElections : MIN_WATCH_INTERVAL;
  }

  private static final Duration MIN_WATCH_INTERVAL = Duration.ofSeconds(2);

  private void watchForReplacement() {
    long interval = watchInterval(settings).toMillis();
    watch.scheduleWithFixedDelay(
        () -> {
          try {
            List<RaftPeer> members =
                new ArrayList<>(server.getDivision(groupId).getRaftConf().getAllPeers());
            String reason =
                GroupReplacement.find(
                    groupId,
                    members,
                    settings.serverId(),
                    settings.electionTimeout().multipliedBy(2));
            if (reason != null) {
              leave(reason);
            }
          } catch (IOException | RuntimeException e) {
            LOG.debug("cannot tell whether a restored group replaced this one: {}", e.toString());
          }
        },
        interval,
        interval,
        TimeUnit.MILLISECONDS);
  }

  /**
   * Leaves the group for good (its Raft server stops: it neither votes nor appends any more, so
   * that the servers of the group replaced cannot form a majority with it).
   */
  private void leave(String reason) {
    replaced = reason;
    watch.shutdown();
    LOG.error(reason);
    left.accept(reason);
    try {
      closeServer();
    } catch (IOException e) {
      LOG.warn(
          "the Raft server of {} did not close cleanly: {}", settings.serverId(), e.toString());
    }
  }

  /** Refuses a request as unavailable once this member left its group ({@link #leave}). */
  private void refuseIfReplaced() throws ReplicationUnavailableException {
    String reason = replaced;
    if (reason != null) {
      throw new ReplicationUnavailableException(reason, null);
    }
  }

  /**
   * Every request is retried every 100 ms (on the leader a refusal names, at once); a write, and a
   * linearizable read, give up once the write timeout passed since it was first sent.
   */
  private static RetryPolicy retryPolicy(ReplicationSettings settings) {
    RetryPolicy every100ms =
        RetryPolicies.retryForeverWithSleep(TimeDuration.valueOf(100, TimeUnit.MILLISECONDS));
    return RequestTypeDependentRetryPolicy.newBuilder()
        .setRetryPolicy(RaftClientRequestProto.TypeCase.WRITE, every100ms)
        .setTimeout(
            RaftClientRequestProto.TypeCase.WRITE,
            TimeDuration.valueOf(settings.writeTimeout().toMillis(), TimeUnit.MILLISECONDS))
        .setRetryPolicy(RaftClientRequestProto.TypeCase.READ, every100ms)
        .setTimeout(
            RaftClientRequestProto.TypeCase.READ,
            TimeDuration.valueOf(settings.writeTimeout().toMillis(), TimeUnit.MILLISECONDS))
        .build();
  }

  private static RaftProperties properties(ReplicationSettings settings) {
    RaftProperties properties = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(properties, List.of(settings.directory().toFile()));
    GrpcConfigKeys.Server.setHost(properties, settings.self().host());
    GrpcConfigKeys.Server.setPort(properties, settings.self().port());
    long election = settings.electionTimeout().toMillis();
    RaftServerConfigKeys.Rpc.setTimeoutMin(
        properties, TimeDuration.valueOf(election, TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Rpc.setTimeoutMax(
        properties, TimeDuration.valueOf(2 * election, TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Rpc.setRequestTimeout(
        properties, TimeDuration.valueOf(2 * election, TimeUnit.MILLISECONDS));
    RaftClientConfigKeys.Rpc.setRequestTimeout(
        properties, TimeDuration.valueOf(2 * election, TimeUnit.MILLISECONDS));
    // Read-only requests (awaitCommitted) use the read index: linearizable, on any member.
    RaftServerConfigKeys.Read.setOption(properties, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
    RaftServerConfigKeys.Read.setTimeout(
        properties,
        TimeDuration.valueOf(settings.writeTimeout().toMillis(), TimeUnit.MILLISECONDS));
    // A snapshot every snapshotInterval entries; the log behind it is purged even when a member
    // lags (that member then receives the snapshot), so the log stays bounded on disk.
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, settings.snapshotInterval());
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
    // The log is purged only after a snapshot, so purge all it allows each time.
    RaftServerConfigKeys.Log.setPurgeGap(properties, 1);
    RaftServerConfigKeys.Log.setSegmentSizeMax(
        properties, SizeInBytes.valueOf(settings.logSegmentBytes()));
    // A server being added may restart to install the leader's snapshot: the leader waits that
    // long for it to answer before it gives the membership change up.
    RaftServerConfigKeys.setStagingTimeout(
        properties, TimeDuration.valueOf(STAGING_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
    return properties;
  }

  /** How long a membership change or an on-demand snapshot may take, retries included. */
  private static final Duration ADMIN_TIMEOUT = Duration.ofMinutes(5);

  private static final Duration ADMIN_REQUEST_TIMEOUT = Duration.ofSeconds(10);

  /**
   * How long one membership change request may wait for the leader's answer: longer than the leader
   * may take to have a server being added catch up ({@link #STAGING_TIMEOUT}), so that a client
   * never gives a change up and sends it again while the leader still works on it (the leader then
   * refused the copy as "reconfiguration in progress", and a slow catch-up, such as a server
   * restarting to install the snapshot, made add-server fail).
   */
  private static final Duration MEMBERSHIP_REQUEST_TIMEOUT = Duration.ofSeconds(90);

  private static final Duration STAGING_TIMEOUT = Duration.ofMinutes(1);

  /**
   * Commits {@code record} through the group and returns what applying it answered, once this
   * member applied it too; or the refusal of the leader, which checked it before appending it
   * ({@link RecordApplier#refusal}).
   *
   * <p>Records submitted while an earlier one of this member is on its way are committed together,
   * as one log entry ({@link GroupCommit}): a follower of Ratis 3.2 syncs each append request of
   * the leader in turn, one after another, so records sharing an entry share its syncs
   * (docs/replication.md). Each entry is its own request, sent on the thread of one of its
   * submitters (Ratis' blocking API), so that the entries of different members are independent:
   * Ratis' ordered asynchronous API would deliver every entry of this member in one sequence
   * instead, and once one timed out and was retried, every later one waited behind it until the
   * write timeout.
   *
   * @throws ReplicationUnavailableException when the group did not commit it within the write
   *     timeout (no leader, no majority); it may still be committed later
   */
  public byte[] submit(byte[] record) throws ReplicationUnavailableException, InterruptedException {
    refuseIfReplaced();
    long deadline = System.nanoTime() + settings.writeTimeout().toNanos();
    GroupCommit.Sent sent;
    try {
      sent = groupCommit.submit(record, deadline);
    } catch (TimeoutException e) {
      throw notCommittedInTime(e);
    }
    return appliedHere(sent, deadline);
  }

  /**
   * As {@link #submit}, but {@code record} is committed as a log entry of its own: for a record
   * whose application keeps its position by log index alone (a change of the shared settings).
   */
  public byte[] submitAlone(byte[] record)
      throws ReplicationUnavailableException, InterruptedException {
    long deadline = System.nanoTime() + settings.writeTimeout().toNanos();
    return appliedHere(send(record), deadline);
  }

  /** Sends one log entry to the leader and returns what became of it there. */
  private GroupCommit.Sent send(byte[] entry)
      throws ReplicationUnavailableException, InterruptedException {
    long deadline = System.nanoTime() + settings.writeTimeout().toNanos();
    Message message = Message.valueOf(UnsafeByteOperations.unsafeWrap(entry));
    RaftClientReply reply;
    try {
      reply = here.submit(message, remaining(deadline));
      if (reply != null && reply.getNotLeaderException() != null) {
        throw new ReplicationUnavailableException(
            "the leader stepped down while committing the write (it may still be applied): "
                + reply.getNotLeaderException().getMessage(),
            reply.getNotLeaderException());
      }
      if (reply == null) {
        reply = client.io().send(message);
      }
    } catch (TimeoutException e) {
      throw notCommittedInTime(e);
    } catch (InterruptedIOException e) {
      throw new InterruptedException(e.getMessage());
    } catch (IOException e) {
      byte[] refusal = RefusedRecord.answerIn(e);
      if (refusal != null) {
        return new GroupCommit.Sent(-1, refusal); // refused before append: nothing to wait for
      }
      if (e instanceof StateMachineException || remaining(deadline) > 0) {
        throw new ReplicationUnavailableException(
            "the replication group could not commit the write: " + e.getMessage(), e);
      }
      throw notCommittedInTime(e);
    }
    if (!reply.isSuccess()) {
      byte[] refusal = RefusedRecord.answerIn(reply.getException());
      if (refusal != null) {
        return new GroupCommit.Sent(-1, refusal);
      }
      throw new ReplicationUnavailableException(
          "the replication group refused the write: " + reply.getException(), reply.getException());
    }
    return new GroupCommit.Sent(reply.getLogIndex(), reply.getMessage().getContent().toByteArray());
  }

  private ReplicationUnavailableException notCommittedInTime(Exception cause) {
    return new ReplicationUnavailableException(
        "the replication group did not commit the write within "
            + settings.writeTimeout().toMillis()
            + " ms: "
            + whyNoMajority()
            + " (it may still be applied once the group is whole)",
        cause);
  }

  /** The answer to a record once this member applied it (read your writes), or its refusal. */
  private byte[] appliedHere(GroupCommit.Sent sent, long deadline)
      throws ReplicationUnavailableException, InterruptedException {
    if (sent.refused()) {
      return sent.answer();
    }
    try {
      // Committed and applied by the leader; this member applies it once it hears of the commit.
      appliedIndex.reached(sent.index()).get(remaining(deadline), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new ReplicationUnavailableException(
          "the replication group committed the write (log index "
              + sent.index()
              + ") but "
              + settings.serverId()
              + " did not apply it within the write timeout: "
              + whyNoMajority(),
          e);
    } catch (ExecutionException e) {
      throw new ReplicationUnavailableException(
          "the replication group could not commit the write: " + e.getCause(), e.getCause());
    }
    return sent.answer();
  }

  /**
   * Returns once this member applied every record committed before the call: it asks the leader for
   * its read index (the commit index, confirmed by a heartbeat to a majority) and waits until it
   * applied that far, so that a read served here next is linearizable.
   *
   * <p>Each read is its own request, sent on the calling thread (Ratis' blocking API), as each
   * write: one that cannot be answered (sent while the group elected a leader, or to a leader that
   * had not committed an entry of its term yet) is retried on its own until the write timeout and
   * holds no other read back. Ratis' ordered asynchronous API answers the reads of this member in
   * the order they were sent, so one stuck read held every later one until it ended.
   *
   * @throws ReplicationUnavailableException when the group did not confirm it within the write
   *     timeout (no leader, no majority)
   */
  public void awaitCommitted() throws ReplicationUnavailableException, InterruptedException {
    refuseIfReplaced();
    long deadline = System.nanoTime() + settings.writeTimeout().toNanos();
    RaftClientReply reply;
    try {
      reply = client.io().sendReadOnly(Message.EMPTY, RaftPeerIds.of(settings.serverId()));
    } catch (InterruptedIOException e) {
      throw new InterruptedException(e.getMessage());
    } catch (IOException e) {
      if (remaining(deadline) > 0) {
        throw new ReplicationUnavailableException(
            "the replication group could not confirm its commit index: " + e.getMessage(), e);
      }
      throw new ReplicationUnavailableException(
          "the replication group did not confirm its commit index within "
              + settings.writeTimeout().toMillis()
              + " ms: "
              + whyNoMajority(),
          e);
    }
    if (!reply.isSuccess()) {
      throw new ReplicationUnavailableException(
          "the replication group could not confirm its commit index: " + reply.getException(),
          reply.getException());
    }
  }

  /**
   * Why the group could not answer in time, as this member sees it now, counting the members of the
   * current configuration (not the bootstrap servers, which count only at the first start).
   */
  private String whyNoMajority() {
    RaftServer.Division division;
    try {
      division = server.getDivision(groupId);
    } catch (IOException e) {
      return notAMember();
    }
    if (!isMember(division)) {
      return notAMember();
    }
    int members = division.getRaftConf().getCurrentPeers().size();
    RaftPeerId leader = division.getInfo().getLeaderId();
    return "no majority of the "
        + members
        + " members of the replication group reachable from "
        + settings.serverId()
        + (leader == null
            ? " (it knows no leader)"
            : " (through the leader " + RaftPeerIds.name(leader) + ")");
  }

  /**
   * Whether this server is in the group's configuration and its Raft server runs: a removed member
   * has its Raft server shut down once it stands for election outside the group.
   */
  private boolean isMember(RaftServer.Division division) {
    return division.getInfo().isAlive()
        && division.getRaftConf().getPeer(RaftPeerIds.of(settings.serverId())) != null;
  }

  private String notAMember() {
    return settings.serverId()
        + " is not a member of the replication group: it was removed (stop it), or it waits to be"
        + " added (dsrepl add-server)";
  }

  private static long remaining(long deadline) {
    return Math.max(0, deadline - System.nanoTime());
  }

  /**
   * How many records submitted here wait for this member's entries on their way ({@link #submit}).
   */
  int queued() {
    return groupCommit.queued();
  }

  /** How many entries of this member are on their way to the group. */
  int entriesOnTheirWay() {
    return groupCommit.onTheirWay();
  }

  /** The last index this member applied. */
  public long appliedIndex() {
    return appliedIndex.get();
  }

  public String serverId() {
    return settings.serverId();
  }

  /**
   * Takes a snapshot of this member's applied state now (besides the one every snapshotInterval
   * entries) and purges the log behind it; returns the snapshot's log index.
   */
  public long takeSnapshot() throws IOException {
    try (RaftClient admin = adminClient(ADMIN_REQUEST_TIMEOUT)) {
      RaftClientReply reply =
          admin
              .getSnapshotManagementApi(RaftPeerIds.of(settings.serverId()))
              .create(1, ADMIN_TIMEOUT.toMillis());
      if (!reply.isSuccess()) {
        throw new IOException("the snapshot failed: " + reply.getException());
      }
      return reply.getLogIndex();
    }
  }

  /**
   * Adds {@code peer} to the group: the leader sends it the newest snapshot and the log after it,
   * and once it caught up commits the new membership. The peer must run (started with this group's
   * members among its bootstrap servers) and be reachable.
   */
  public void addServer(Peer peer) throws IOException {
    RaftPeer added = raftPeer(peer);
    if (currentPeers().stream().anyMatch(p -> p.getId().equals(added.getId()))) {
      throw new IOException(peer.id() + " is already a member of the replication group");
    }
    setConfiguration(
        SetConfigurationRequest.Arguments.newBuilder()
            .setServersInNewConf(List.of(added))
            .setMode(SetConfigurationRequest.Mode.ADD)
            .build(),
        "adding " + peer.id());
  }

  /**
   * Removes the member {@code id} from the group; the group then needs a majority of the others.
   * The removed server keeps its data and should be stopped.
   */
  public void removeServer(String id) throws IOException {
    List<RaftPeer> current = currentPeers();
    List<RaftPeer> remaining =
        current.stream().filter(p -> !RaftPeerIds.name(p.getId()).equals(id)).toList();
    if (remaining.size() == current.size()) {
      throw new IOException(id + " is not a member of the replication group");
    }
    if (remaining.isEmpty()) {
      throw new IOException("the last member of a replication group cannot be removed");
    }
    setConfiguration(
        SetConfigurationRequest.Arguments.newBuilder()
            .setServersInCurrentConf(current)
            .setServersInNewConf(remaining)
            .setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET)
            .build(),
        "removing " + id);
  }

  /**
   * Sends a membership change to the leader, waiting for its answer longer than the leader may work
   * on it ({@link #MEMBERSHIP_REQUEST_TIMEOUT}). The leader takes one change at a time, and a
   * leader just elected takes none before the membership it starts its term with is committed:
   * meanwhile it answers "reconfiguration in progress", a passing state that an operator's {@code
   * dsrepl add-server} or {@code remove-server} should not fail on. Ratis' client sends the change
   * again a few times; past those, it is sent again here until that state ends, for at most {@link
   * #MEMBERSHIP_CHANGE_WAIT} (another server being added may catch up for up to {@link
   * #STAGING_TIMEOUT}).
   */
  private void setConfiguration(SetConfigurationRequest.Arguments change, String what)
      throws IOException {
    long deadline = System.nanoTime() + MEMBERSHIP_CHANGE_WAIT.toNanos();
    try (RaftClient admin = adminClient(MEMBERSHIP_REQUEST_TIMEOUT)) {
      while (true) {
        IOException refusal;
        try {
          RaftClientReply reply = admin.admin().setConfiguration(change);
          if (reply.isSuccess()) {
            return;
          }
          refusal = reply.getException();
        } catch (IOException e) {
          refusal = e;
        }
        if (!changeUnderWay(refusal)) {
          throw new IOException(what + " failed: " + refusal, refusal);
        }
        if (remaining(deadline) <= 0) {
          throw new IOException(
              what
                  + " failed: another change of the replication group's membership was still under"
                  + " way after "
                  + MEMBERSHIP_CHANGE_WAIT.toSeconds()
                  + " s (a server being added first catches up: see dsrepl status); try again"
                  + " once it ended",
              refusal);
        }
        LOG.info("{}: another membership change is under way; sending it again", what);
        try {
          Thread.sleep(MEMBERSHIP_CHANGE_RETRY.toMillis()); // the leader tells no one when it ends
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException(what + " was interrupted");
        }
      }
    }
  }

  /** Whether the leader refused a membership change because another one is under way. */
  private static boolean changeUnderWay(Throwable refusal) {
    for (Throwable t = refusal; t != null; t = t.getCause()) {
      if (t instanceof ReconfigurationInProgressException) {
        return true;
      }
    }
    return false;
  }

  /** How long a membership change waits for one under way to end before it gives up. */
  private static final Duration MEMBERSHIP_CHANGE_WAIT = STAGING_TIMEOUT.plusMinutes(1);

  private static final Duration MEMBERSHIP_CHANGE_RETRY = Duration.ofMillis(250);

  /** The members of the current configuration (old and new ones while it changes). */
  private List<RaftPeer> currentPeers() throws IOException {
    String reason = replaced;
    if (reason != null) {
      throw new IOException(reason);
    }
    return new ArrayList<>(server.getDivision(groupId).getRaftConf().getAllPeers());
  }

  /**
   * A client for one administrative request: each attempt waits up to {@code requestTimeout}, and
   * attempts are retried (after a second) for {@link #ADMIN_TIMEOUT} in all.
   */
  private RaftClient adminClient(Duration requestTimeout) throws IOException {
    RaftProperties properties = new RaftProperties();
    RaftClientConfigKeys.Rpc.setRequestTimeout(
        properties, TimeDuration.valueOf(requestTimeout.toMillis(), TimeUnit.MILLISECONDS));
    return RaftClient.newBuilder()
        .setClientId(ClientId.randomId())
        .setRaftGroup(RaftGroup.valueOf(groupId, currentPeers()))
        .setProperties(properties)
        .setRetryPolicy(
            RetryPolicies.retryUpToMaximumCountWithFixedSleep(
                (int) (ADMIN_TIMEOUT.toMillis() / requestTimeout.toMillis()),
                TimeDuration.valueOf(1, TimeUnit.SECONDS)))
        .build();
  }

  static RaftPeer raftPeer(Peer peer) {
    return RaftPeer.newBuilder()
        .setId(RaftPeerIds.of(peer.id()))
        .setAddress(peer.address())
        .build();
  }

  /** The group as this member sees it now. */
  public GroupStatus status() throws IOException {
    String reason = replaced;
    if (reason != null) {
      long applied = appliedIndex.get();
      return new GroupStatus(
          settings.serverId(),
          "replaced",
          null,
          0,
          applied,
          applied,
          List.of(),
          0,
          reason,
          false,
          true,
          stateMachine.entriesApplied(),
          stateMachine.recordsApplied());
    }
    RaftServer.Division division = server.getDivision(groupId);
    DivisionInfo info = division.getInfo();
    RaftPeerId leader = info.getLeaderId();
    String leaderId = leader == null ? null : RaftPeerIds.name(leader);
    Map<String, Long> matched = new HashMap<>();
    if (info.isLeader()) {
      RoleInfoProto role = info.getRoleInfoProto();
      long[] indices = info.getFollowerMatchIndices();
      List<ServerRpcProto> followers = role.getLeaderInfo().getFollowerInfoList();
      for (int i = 0; i < followers.size() && indices != null && i < indices.length; i++) {
        matched.put(
            RaftPeerIds.name(RaftPeerId.valueOf(followers.get(i).getId().getId())), indices[i]);
      }
    }
    List<MemberStatus> members = new ArrayList<>();
    List<RaftPeer> peers = new ArrayList<>(division.getRaftConf().getAllPeers());
    peers.sort(Comparator.comparing(p -> RaftPeerIds.name(p.getId())));
    for (RaftPeer peer : peers) {
      String id = RaftPeerIds.name(peer.getId());
      String role;
      long match;
      if (id.equals(settings.serverId())) {
        role = roleName(info.getCurrentRole());
        match = appliedIndex.get();
      } else {
        role = leaderId == null ? "unknown" : id.equals(leaderId) ? "leader" : "follower";
        match = matched.getOrDefault(id, -1L);
      }
      members.add(new MemberStatus(id, peer.getAddress(), role, match));
    }
    return new GroupStatus(
        settings.serverId(),
        roleName(info.getCurrentRole()),
        leaderId,
        info.getCurrentTerm(),
        division.getRaftLog().getLastCommittedIndex(),
        appliedIndex.get(),
        members,
        division.getRaftLog().getStartIndex(),
        stateMachine.stopped(),
        isMember(division),
        false,
        stateMachine.entriesApplied(),
        stateMachine.recordsApplied());
  }

  private static String roleName(RaftPeerRole role) {
    return role.name().toLowerCase(Locale.ROOT);
  }

  /** Leaves the group: stops the client, then the Raft server (its log is kept). */
  @Override
  public void close() throws IOException {
    watch.shutdownNow();
    try {
      client.close();
    } finally {
      closeServer();
    }
  }

  /** How long the Raft server may take to close once its state machine closed. */
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

  /**
   * Closes the Raft server. A leader that commits a membership without itself (remove-server of the
   * leader) closes its Raft server while it holds the server's lock and waits for the client
   * requests under way, while a write another member forwarded at that moment waits for that lock
   * (Ratis 3.2): that close never ends, and the close here, which waits for the same requests,
   * would not either. So once the state machine is closed (no record is applied any more, the log
   * is closed), the server is not waited for longer than {@link #CLOSE_TIMEOUT}: the process exit
   * ends what is left. Before that it is waited for, since the backends must not close under the
   * apply thread.
   */
  private void closeServer() throws IOException {
    if (server == null) {
      return;
    }
    CompletableFuture<Void> closed = new CompletableFuture<>();
    new DaemonThreads("rockds-raft-close")
        .newThread(
            () -> {
              try {
                server.close();
                closed.complete(null);
              } catch (IOException | RuntimeException e) {
                closed.completeExceptionally(e);
              }
            })
        .start();
    try {
      CompletableFuture.anyOf(stateMachine.closed(), closed).get();
      closed.get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.warn(
          "the Raft server of {} did not close within {} s after its state machine (a request it"
              + " waits for waits for it): left to the process exit",
          settings.serverId(),
          CLOSE_TIMEOUT.toSeconds());
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
