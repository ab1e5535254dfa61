/**
 * {@code bin/backup} and {@code bin/restore}: instance backups ({@link
 * io.rockds.server.backup.BackupDirectory}) taken offline or, through a backup task, by a running
 * server; listing, verifying, purging and restoring them.
 */
package io.rockds.tools.backup;
