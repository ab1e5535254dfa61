/**
 * Storage benchmarks; each class gives its run command in its Javadoc.
 *
 * <p>JMH micro-benchmarks of entry encoding, index key generation and ID-set operations, and
 * bounded runs measuring add rate against directory size and bulk import rate.
 *
 * <p>Also the measurements of the two candidate attribute-index layouts of DESIGN.md §2 on raw
 * RocksDB, made before the storage engine committed to one: {@link
 * io.rockds.benchmarks.storage.IdListLayout} is OpenDJ's layout (one key per normalized index key,
 * a compact ID set or an over-limit marker as value, read-modify-write under a lock stripe); {@link
 * io.rockds.benchmarks.storage.KeyPerIdLayout} stores one empty-valued key per (value, ID) and
 * reads with a bounded prefix scan. {@link io.rockds.benchmarks.storage.IndexLayoutBenchmark} (JMH)
 * measures read latency, {@link io.rockds.benchmarks.storage.IndexLayoutGrowthRun} add rate as the
 * database grows, disk footprint and a backendstat-style report. Results and the recommendation:
 * {@code benchmarks/INDEX-LAYOUT.md}.
 */
package io.rockds.benchmarks.storage;
