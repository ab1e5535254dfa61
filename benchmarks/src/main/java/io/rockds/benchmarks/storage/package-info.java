/**
 * Measurements of the two candidate attribute-index layouts of DESIGN.md §2 on raw RocksDB, made
 * before the storage engine commits to one.
 *
 * <p>{@link io.rockds.benchmarks.storage.IdListLayout} is OpenDJ's layout: one RocksDB key per
 * normalized index key whose value is a compact ID set or an over-limit marker, updated by
 * read-modify-write under a lock stripe. {@link io.rockds.benchmarks.storage.KeyPerIdLayout} stores
 * one empty-valued key per (value, ID) pair and reads a key with a bounded prefix scan.
 * {@link io.rockds.benchmarks.storage.IndexLayoutBenchmark} (JMH) measures read latency,
 * {@link io.rockds.benchmarks.storage.IndexLayoutGrowthRun} measures add rate as the database grows,
 * disk footprint and the cost of a backendstat-style entry-limit report. Results and the
 * recommendation are in {@code benchmarks/INDEX-LAYOUT.md}.
 */
package io.rockds.benchmarks.storage;
