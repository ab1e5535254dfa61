/**
 * {@code verify-index}: the storage {@link io.rockds.storage.maintenance.IndexVerifier} run from
 * the command line against a read-only view of an instance's backend, every inconsistency printed.
 */
package io.rockds.tools.verify;
