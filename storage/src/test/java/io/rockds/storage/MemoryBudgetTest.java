package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemoryBudgetTest {
  private static final long GIB = 1L << 30;

  @Test
  void theDefaultOnTwentyFourGibibytesFitsTenMillionEntries() {
    MemoryBudget budget = MemoryBudget.derive(0, 24 * GIB, 3 * GIB);
    assertThat(budget.totalBytes()).isEqualTo(12 * GIB);
    assertThat(budget.heapBytes()).isEqualTo(3 * GIB);
    assertThat(budget.entryCacheBytes()).isEqualTo(3 * GIB * 40 / 100);
    assertThat(budget.blockCacheBytes()).isEqualTo(6 * GIB);
    assertThat(budget.memtableBytes()).isEqualTo(192L << 20);
    assertThat(budget.heapBytes() + budget.blockCacheBytes() + budget.memtableBytes())
        .isLessThan(budget.totalBytes());
  }

  @Test
  void anExplicitBudgetWinsAndTheEntryCacheFollowsTheHeapInEffect() {
    MemoryBudget budget = MemoryBudget.derive(2 * GIB, 64 * GIB, GIB);
    assertThat(budget.totalBytes()).isEqualTo(2 * GIB);
    assertThat(budget.heapBytes()).isEqualTo(GIB / 2);
    assertThat(budget.entryCacheBytes()).isEqualTo(GIB * 40 / 100);
    assertThat(budget.blockCacheBytes()).isEqualTo(GIB);
    assertThat(budget.memtableBytes()).isEqualTo(64L << 20);
    assertThat(MemoryBudget.share(GIB, 4)).isEqualTo(GIB / 4);
  }
}
