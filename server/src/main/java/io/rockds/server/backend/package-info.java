/**
 * Naming contexts: every part of the tree (the root DSE, {@code cn=schema}, {@code cn=config},
 * {@code cn=monitor}, {@code cn=tasks}, the RocksDB backends) is one {@link
 * io.rockds.server.backend.DirectoryBackend} behind the {@link
 * io.rockds.server.backend.BackendRouter}, so the operations and access control handle LDAP once,
 * whichever backend answers.
 */
package io.rockds.server.backend;
