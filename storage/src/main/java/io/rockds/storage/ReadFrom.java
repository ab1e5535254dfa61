package io.rockds.storage;

/**
 * Where a read may look for its records: anywhere, waiting for the disk if need be, or in memory
 * only (the block cache and the memtables), for a reader that must not wait, such as a request run
 * on a network event loop. A memory-only read of a record not in memory fails with {@link
 * StorageException.Kind#NOT_IN_MEMORY}, and the reader retries where it may wait.
 */
public enum ReadFrom {
  ANYWHERE,
  MEMORY
}
