package io.rockds.server.config;

import io.rockds.server.logging.ErrorSeverity;
import io.rockds.server.logging.ServerLogs;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The server's {@link IndexRebuildHook} until storage can mark an index untrusted itself: remembers
 * which indexes need a rebuild (as {@code <backend>/<attribute>}, {@code <backend>/*} for all) and
 * writes a warning to the error log for each.
 */
public final class PendingIndexRebuilds implements IndexRebuildHook {
  private final ServerLogs logs;
  private final Set<String> pending = new LinkedHashSet<>();

  public PendingIndexRebuilds(ServerLogs logs) {
    this.logs = logs;
  }

  @Override
  public synchronized void indexNeedsRebuild(String backendId, String attribute, String reason) {
    String index = backendId + "/" + (attribute == null ? "*" : attribute);
    pending.add(index);
    logs.error(ErrorSeverity.WARNING, "BACKEND", "index " + index + " must be rebuilt before searches can trust it: "
        + reason);
  }

  public synchronized Set<String> pending() {
    return Set.copyOf(pending);
  }
}
