package io.rockds.server.config;

/**
 * Told when an index's configuration changed so that its records no longer match it (new index,
 * new type, different entry limit or substring length). The storage API that marks an index
 * untrusted ({@code setIndexEntryLimit}/{@code addIndex}) was not merged when this was written: the
 * server's hook records the index as needing a rebuild and says so in the error log; wiring it
 * to storage is one implementation of this interface.
 */
@FunctionalInterface
public interface IndexRebuildHook {
  /**
   * @param attribute the index's attribute, or null when every index of the backend is affected
   *     (its index-entry-limit changed)
   */
  void indexNeedsRebuild(String backendId, String attribute, String reason);
}
