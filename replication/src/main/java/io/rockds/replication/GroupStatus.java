package io.rockds.replication;

import java.util.List;

/**
 * The replication group as one member sees it: the figures of {@code dsrepl status}, {@code
 * cn=monitor} and {@code /metrics}.
 *
 * @param serverId the local member
 * @param role the local member's role: {@code leader}, {@code follower}, {@code candidate}
 * @param leaderId the leader's ID, or null when none is known
 * @param term the current Raft term
 * @param commitIndex the last index known committed
 * @param appliedIndex the last index the local member applied
 * @param members every member, by ID; lag is only known to the leader
 * @param logStartIndex the first index still in the local log: entries before it were purged behind
 *     a snapshot, and a member that needs them receives the snapshot instead
 * @param applyFailure why the local member stopped applying records (its storage failed, or it
 *     installs the leader's snapshot at its next start), or null while it applies them
 * @param member whether the local server is a member of the group: false once it was removed (its
 *     Raft server shut down), and while it waits to be added
 * @param replaced whether the local server left its group because a group restored from a backup
 *     replaced it ({@code applyFailure} says which and what to do): its data predates the restore
 * @param entriesApplied the log entries holding records the local member applied since it started
 * @param recordsApplied the records those held: more than entries when writes shared an entry
 *     (group commit)
 */
public record GroupStatus(
    String serverId,
    String role,
    String leaderId,
    long term,
    long commitIndex,
    long appliedIndex,
    List<MemberStatus> members,
    long logStartIndex,
    String applyFailure,
    boolean member,
    boolean replaced,
    long entriesApplied,
    long recordsApplied) {
  /** Whether a leader is known. */
  public boolean hasLeader() {
    return leaderId != null;
  }

  /** Whether writes through the local server can commit: it is a member and knows a leader. */
  public boolean writable() {
    return member && hasLeader();
  }

  /** Whether the local member applies the committed records (else its copy falls behind). */
  public boolean applying() {
    return applyFailure == null;
  }
}
