package io.rockds.replication;

/**
 * One member as the local member sees it.
 *
 * @param id the server ID
 * @param address host:port of its replication listener
 * @param role {@code leader}, {@code follower}, {@code candidate} for the local member; for the
 *     others {@code leader} or {@code follower} when the local member knows the leader, else {@code
 *     unknown}
 * @param matchIndex the last log index known to be on that member: the local member's applied index
 *     for itself, the leader's view of a follower when the local member leads, else -1
 */
public record MemberStatus(String id, String address, String role, long matchIndex) {}
