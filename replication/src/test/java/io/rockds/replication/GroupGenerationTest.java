package io.rockds.replication;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.ratis.protocol.RaftGroupId;
import org.junit.jupiter.api.Test;

class GroupGenerationTest {
  private static final RaftGroupId FIRST = GroupStorage.FIRST_GROUP;

  @Test
  void aRestoredGroupReplacesTheGroupsItDescendsFromAndNoOther() {
    RaftGroupId restored = GroupGeneration.successor(FIRST);
    RaftGroupId restoredAgain = GroupGeneration.successor(restored);
    assertThat(GroupGeneration.generation(FIRST)).isZero();
    assertThat(GroupGeneration.generation(restored)).isEqualTo(1);
    assertThat(GroupGeneration.generation(restoredAgain)).isEqualTo(2);

    assertThat(GroupGeneration.replaces(restored, FIRST)).isTrue();
    assertThat(GroupGeneration.replaces(restoredAgain, restored)).isTrue();
    assertThat(GroupGeneration.replaces(restoredAgain, FIRST)).isTrue();

    assertThat(GroupGeneration.replaces(FIRST, restored)).isFalse();
    assertThat(GroupGeneration.replaces(restored, restoredAgain)).isFalse();
    for (RaftGroupId group : new RaftGroupId[] {FIRST, restored, restoredAgain}) {
      assertThat(GroupGeneration.replaces(group, group)).isFalse();
    }
  }

  @Test
  void eachGenerationNumbersAboveEveryNumberOfTheGenerationsBefore() {
    RaftGroupId restored = GroupGeneration.successor(FIRST);
    RaftGroupId restoredAgain = GroupGeneration.successor(restored);
    assertThat(GroupGeneration.numbersAbove(FIRST)).isZero();
    assertThat(GroupGeneration.numbersAbove(restored))
        .isEqualTo(GroupGeneration.NUMBERS_PER_GENERATION);
    assertThat(GroupGeneration.numbersAbove(restoredAgain))
        .isEqualTo(2 * GroupGeneration.NUMBERS_PER_GENERATION);
  }

  @Test
  void groupsRestoredApartFromOneGroupDoNotReplaceEachOther() {
    RaftGroupId one = GroupGeneration.successor(FIRST);
    RaftGroupId other = GroupGeneration.successor(FIRST);
    RaftGroupId later = GroupGeneration.successor(other);
    assertThat(one).isNotEqualTo(other);
    assertThat(GroupGeneration.replaces(later, one)).isFalse();
    assertThat(GroupGeneration.replaces(one, other)).isFalse();
  }

  @Test
  void aGroupAnEarlierVersionRestoredReplacesTheFirstGroupOnly() {
    RaftGroupId earlier = RaftGroupId.randomId();
    assertThat(GroupGeneration.replaces(earlier, FIRST)).isTrue();
    assertThat(GroupGeneration.replaces(earlier, GroupGeneration.successor(FIRST))).isFalse();
    assertThat(GroupGeneration.generation(GroupGeneration.successor(earlier))).isEqualTo(2);
  }
}
