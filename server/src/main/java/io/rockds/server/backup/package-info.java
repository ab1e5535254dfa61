/**
 * Backups of a whole instance: every backend's database through RocksDB's backup engine ({@link
 * io.rockds.storage.backup.DatabaseBackups}) plus a checksummed copy of the configuration and
 * schema, under one backup ID ({@link io.rockds.server.backup.BackupDirectory}). Used by the online
 * backup task and by {@code bin/backup} / {@code bin/restore} offline.
 */
package io.rockds.server.backup;
