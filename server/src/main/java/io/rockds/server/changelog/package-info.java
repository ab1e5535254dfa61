/**
 * {@code cn=changelog} (draft-good-ldap-changelog, as OpenDJ's external changelog): each change
 * applied to a RocksDB backend is recorded in that backend's database by the batch that applies it
 * ({@link io.rockds.server.changelog.ChangelogStore}), and served as {@code
 * changeNumber=N,cn=changelog} entries to holders of the {@code changelog-read} privilege ({@link
 * io.rockds.server.changelog.ChangelogBackend}).
 */
package io.rockds.server.changelog;
