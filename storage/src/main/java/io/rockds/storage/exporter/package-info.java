/**
 * Export of a backend to LDIF ({@link io.rockds.storage.exporter.LdifExporter}) with the same
 * branch and attribute filters as the importer, so export → import → export is stable.
 */
package io.rockds.storage.exporter;
