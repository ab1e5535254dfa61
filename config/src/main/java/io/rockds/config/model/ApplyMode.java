package io.rockds.config.model;

/** When a changed property takes effect; OpenDJ's {@code requires-admin-action}. */
public enum ApplyMode {
  /** At once, on the running server. */
  LIVE("applies immediately"),
  /** When the server restarts (listeners, storage options). */
  RESTART("takes effect after the server restarts"),
  /** Now for new writes, but existing index records are stale until the index is rebuilt. */
  REBUILD_INDEX("requires the affected indexes to be rebuilt (rebuild-index)"),
  /**
   * At once for reads and writes; the indexes stay trusted and correct, and a rebuild makes the
   * keys stored under the old limit exact again (an index-entry-limit, as OpenDJ).
   */
  LIVE_REBUILD_TIGHTENS(
      "applies immediately (the indexes keep answering correctly); rebuild-index"
          + " --rebuildDegraded tightens the keys stored under the old limit");

  private final String notice;

  ApplyMode(String notice) {
    this.notice = notice;
  }

  /** A phrase for operators, e.g. "takes effect after the server restarts". */
  public String notice() {
    return notice;
  }
}
