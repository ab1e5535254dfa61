/**
 * {@code rebuild-index}: the storage {@link io.rockds.storage.maintenance.IndexRebuilder} run
 * offline against an instance's backend, with progress.
 */
package io.rockds.tools.rebuild;
