package io.rockds.storage.search;

import io.rockds.storage.IdSet;

/**
 * The candidates of one filter (or one index read) and the trace of how they were found.
 *
 * @param exact true when {@code ids} are exactly the entries the filter matches (an equality or
 *     presence index of the attribute itself, and ANDs and ORs made only of such reads, all run):
 *     phase 2 need not test the filter again
 */
public record Evaluated(IdSet ids, Trace trace, boolean exact) {
  /** Candidates that may include entries the filter does not match. */
  public Evaluated(IdSet ids, Trace trace) {
    this(ids, trace, false);
  }
}
