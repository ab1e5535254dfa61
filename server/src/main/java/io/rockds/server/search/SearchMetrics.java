package io.rockds.server.search;

import java.util.concurrent.atomic.LongAdder;

/** Search counters for monitoring: how many searches ran, and how many of them were unindexed. */
public final class SearchMetrics {
  private final LongAdder searches = new LongAdder();
  private final LongAdder unindexed = new LongAdder();

  public void searchStarted() {
    searches.increment();
  }

  /** Counts a search whose candidates were all entries in scope (allowed or refused). */
  public void unindexedSearch() {
    unindexed.increment();
  }

  public long searches() {
    return searches.sum();
  }

  public long unindexedSearches() {
    return unindexed.sum();
  }
}
