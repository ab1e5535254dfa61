/**
 * Search evaluation over one entry container, in OpenDJ's two phases: {@link
 * io.rockds.storage.search.IndexFilter} turns a filter into candidate entry IDs from the indexes
 * and {@link io.rockds.storage.search.SearchCandidates} narrows them by scope, both recording every
 * index read in a {@link io.rockds.storage.search.Trace} (the {@code debugsearchindex} value);
 * {@link io.rockds.storage.matching.FilterEvaluator} then decides each candidate entry with the
 * schema's matching rules and RFC 4511's three-valued logic.
 */
package io.rockds.storage.search;
