/**
 * The parts of a search beyond candidate building and filter evaluation (which live in {@code
 * io.rockds.storage.search}): limits, the paged-results cookies of a connection, server-side
 * sorting, matched values, the {@code debugsearchindex} entry and the unindexed-search counter.
 * {@code io.rockds.server.SearchOperation} puts them together.
 */
package io.rockds.server.search;
