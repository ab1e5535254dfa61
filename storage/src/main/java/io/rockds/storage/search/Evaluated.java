package io.rockds.storage.search;

import io.rockds.storage.IdSet;

/** The candidates of one filter (or one index read) and the trace of how they were found. */
public record Evaluated(IdSet ids, Trace trace) {}
