package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryBudgetTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  @Test
  void theDefaultOnTwentyFourGibibytesFitsTenMillionEntries() {
    MemoryBudget budget = MemoryBudget.derive(0, 24 * GIB, 512 * MIB);
    assertThat(budget.totalBytes()).isEqualTo(12 * GIB);
    assertThat(budget.heapBytes()).isEqualTo(512 * MIB);
    assertThat(budget.entryCacheBytes()).isEqualTo(512 * MIB * 40 / 100);
    assertThat(budget.blockCacheBytes()).isEqualTo(6 * GIB);
    assertThat(budget.memtableBytes()).isEqualTo(192L << 20);
    assertThat(budget.heapBytes() + budget.blockCacheBytes() + budget.memtableBytes())
        .isLessThan(budget.totalBytes());
  }

  @Test
  void anExplicitBudgetWinsAndTheEntryCacheFollowsTheHeapInEffect() {
    MemoryBudget budget = MemoryBudget.derive(2 * GIB, 64 * GIB, GIB);
    assertThat(budget.totalBytes()).isEqualTo(2 * GIB);
    assertThat(budget.heapBytes()).isEqualTo(512 * MIB);
    assertThat(budget.entryCacheBytes()).isEqualTo(GIB * 40 / 100);
    assertThat(budget.blockCacheBytes()).isEqualTo(GIB);
    assertThat(budget.memtableBytes()).isEqualTo(64L << 20);
    assertThat(MemoryBudget.share(GIB, 4)).isEqualTo(GIB / 4);
  }

  @Test
  void theHeapGrowsWithALargeBudgetOnly() {
    assertThat(MemoryBudget.derive(64 * GIB, 128 * GIB, GIB).heapBytes()).isEqualTo(2 * GIB);
    assertThat(MemoryBudget.derive(0, 4 * GIB, GIB).heapBytes()).isEqualTo(512 * MIB);
  }

  @Test
  void aServingBackendsMemtablesAreAnEighthOfItsDataWithinTheShare() {
    long share = 192 * MIB;
    assertThat(MemoryBudget.memtablesFor(0, share)).isEqualTo(32 * MIB);
    assertThat(MemoryBudget.memtablesFor(190 * MIB, share))
        .as("100k users with photos")
        .isEqualTo(32 * MIB);
    assertThat(MemoryBudget.memtablesFor(800 * MIB, share)).isEqualTo(100 * MIB);
    assertThat(MemoryBudget.memtablesFor(2200 * MIB, share)).as("1M users").isEqualTo(share);
    assertThat(MemoryBudget.memtablesFor(0, 16 * MIB))
        .as("an explicit small share")
        .isEqualTo(16 * MIB);
  }
}
