/**
 * Index maintenance for the tools (backendstat, rebuild-index, verify-index) and the server: {@link
 * io.rockds.storage.maintenance.IndexVerifier} checks every index record and the entry trees
 * against {@code id2entry}, {@link io.rockds.storage.maintenance.IndexRebuilder} rebuilds one, all
 * or the degraded indexes online or offline, {@link io.rockds.storage.maintenance.IndexStatistics}
 * reports record counts, over-limit keys and keys nearing the limit.
 *
 * <p>Checks and statistics read one RocksDB snapshot, so they are exact while writes continue; they
 * work on a backend opened with {@link io.rockds.storage.Backend#openReadOnly} too.
 */
package io.rockds.storage.maintenance;
