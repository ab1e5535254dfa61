/**
 * Backups of one backend's RocksDB database through RocksDB's own {@code BackupEngine}: consistent
 * at one sequence number, SST files shared between backups (incremental) or copied privately
 * (full), every file checksummed (CRC32C) in the engine's metadata.
 */
package io.rockds.storage.backup;
