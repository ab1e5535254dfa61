/**
 * The embedded RocksDB backend: entries, the DN tree, and reversed attribute indexes bounded by a
 * per-key entry limit.
 *
 * <p>One {@link io.rockds.storage.Backend} is one RocksDB database with these column families (each
 * class named after the one it owns opens with its byte layout): {@code id2entry} ({@link
 * io.rockds.storage.Id2Entry}), {@code dn2id} ({@link io.rockds.storage.Dn2Id}), {@code
 * id2childrencount} ({@link io.rockds.storage.Id2ChildrenCount}), {@code state} ({@link
 * io.rockds.storage.BackendState}) and one per attribute index, named like OpenDJ's trees ({@code
 * sn.caseIgnoreMatch}, {@code cn.caseIgnoreSubstringsMatch:6}, {@code aci.presence}).
 *
 * <p>Every LDAP write is one atomic {@code WriteBatch} across all of them, committed with the WAL
 * and, by default, synced. {@link io.rockds.storage.IndexBuild} rebuilds indexes while writes
 * continue, {@link io.rockds.storage.BulkLoad} fills an emptied container from SST files, and
 * {@link io.rockds.storage.Backend#openReadOnly} gives tools a view beside a running server.
 * Nothing here knows sockets or LDAP operations; errors are {@link
 * com.unboundid.ldap.sdk.LDAPException}s carrying the result code the server returns.
 */
package io.rockds.storage;
