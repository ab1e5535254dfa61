/**
 * Bulk import of LDIF into a backend ({@link io.rockds.storage.importer.LdifImporter}): parsing,
 * filtering and key computation run on every core, one thread feeds {@link
 * io.rockds.storage.BulkLoad} in input order, and bad records go to a rejects file with their line
 * number and reason while the rest imports.
 */
package io.rockds.storage.importer;
