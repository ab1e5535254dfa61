package io.rockds.replication;

import java.security.SecureRandom;
import java.util.UUID;
import org.apache.ratis.protocol.RaftGroupId;

/**
 * Which replication group replaced which. A group restored from a backup ({@link
 * GroupStorage#seed}) replaces the group its server was a member of, and its ID says so, since the
 * ID is all that Ratis tells any server asking a member which groups it runs: the servers of the
 * group before, started again without being reset, recognise the group that replaced theirs on any
 * member they reach ({@link GroupReplacement}).
 *
 * <p>A restored group's ID is {@code MARK} (32 bits), its generation (32 bits) and its lineage (64
 * bits). The group setup forms ({@link GroupStorage#FIRST_GROUP}) is generation 0; a group restored
 * from it is generation 1 of a new random lineage; a group restored from a restored group is one
 * generation more, of the same lineage. (A group an earlier version restored has a random ID: it
 * replaced a group of generation 0, and nothing is known of its lineage.)
 */
final class GroupGeneration {
  private static final long MARK = 0x52_44_53_47L; // "RDSG"
  private static final SecureRandom RANDOM = new SecureRandom();

  private GroupGeneration() {}

  /** The ID of a group restored from a backup on a server of {@code replaced}. */
  static RaftGroupId successor(RaftGroupId replaced) {
    UUID old = replaced.getUuid();
    long lineage = marked(old) ? old.getLeastSignificantBits() : RANDOM.nextLong();
    long generation = generation(replaced) + 1;
    return RaftGroupId.valueOf(new UUID(MARK << 32 | generation, lineage));
  }

  /**
   * How many change numbers each generation has to itself ({@link #numbersAbove}): at 10,000
   * changes a second, a group takes three years to use them.
   */
  static final long NUMBERS_PER_GENERATION = 1_000_000_000_000L;

  /**
   * The number every record of {@code group} is numbered above ({@link RecordPosition#number}):
   * generation g numbers from g × {@link #NUMBERS_PER_GENERATION} + 1. The group a restore replaces
   * numbered records the restoring server may never have seen (while it was stopped or behind, the
   * others went on), and no server can ask them once all are stopped for the restore; numbering
   * each generation apart keeps every number new without asking.
   */
  static long numbersAbove(RaftGroupId group) {
    return generation(group) * NUMBERS_PER_GENERATION;
  }

  /** Whether {@code newer} was restored, directly or through other restores, from {@code older}. */
  static boolean replaces(RaftGroupId newer, RaftGroupId older) {
    if (older.equals(GroupStorage.FIRST_GROUP)) {
      return !newer.equals(older);
    }
    UUID n = newer.getUuid();
    UUID o = older.getUuid();
    return marked(n)
        && marked(o)
        && n.getLeastSignificantBits() == o.getLeastSignificantBits()
        && generation(newer) > generation(older);
  }

  /** How many restores separate the group from the one setup formed. */
  static long generation(RaftGroupId group) {
    if (group.equals(GroupStorage.FIRST_GROUP)) {
      return 0;
    }
    UUID id = group.getUuid();
    return marked(id) ? id.getMostSignificantBits() & 0xFFFF_FFFFL : 1;
  }

  private static boolean marked(UUID id) {
    return id.getMostSignificantBits() >>> 32 == MARK;
  }
}
