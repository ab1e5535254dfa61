/**
 * {@code bin/import-ldif} and {@code bin/export-ldif}: OpenDJ-compatible options on top of the
 * storage import and export engines. Entries imported get the server's operational attributes and
 * password hashing here, since storage does not depend on the server.
 */
package io.rockds.tools.ldif;
