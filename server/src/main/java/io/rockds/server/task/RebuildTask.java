package io.rockds.server.task;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.Backends;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.maintenance.IndexRebuilder;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * An online index rebuild ({@code objectClass: ds-task-rebuild}), as OpenDJ's rebuild task: {@code
 * ds-task-rebuild-base-dn} names the base DN, each {@code ds-task-rebuild-index} value an attribute
 * (all its indexes), a tree name such as {@code sn.caseIgnoreMatch}, or {@code rebuildAll} / {@code
 * rebuildDegraded}. It runs {@link IndexRebuilder} inside the server while clients keep writing:
 * storage keeps the indexes being rebuilt untrusted (searches ignore them) and consistent with
 * concurrent writes until they are trusted again (see {@code io.rockds.storage.IndexBuild}). A
 * server shutdown stops it between two batches; the indexes then stay untrusted until rebuilt
 * again.
 */
final class RebuildTask extends ScheduledTask {
  static final String OBJECT_CLASS = "ds-task-rebuild";
  static final String BASE_DN = "ds-task-rebuild-base-dn";
  static final String INDEX = "ds-task-rebuild-index";
  static final String REBUILD_ALL = "rebuildAll";
  static final String REBUILD_DEGRADED = "rebuildDegraded";

  /**
   * Progress, for rebuild-index to show: entries indexed so far, of how many when the rebuild
   * started.
   */
  static final String PROCESSED = "ds-task-processed-entry-count";

  static final String TOTAL = "ds-task-total-entry-count";

  private final EntryContainer container;
  private final List<String> indexes;
  private volatile long processed;
  private volatile long total = -1;

  private RebuildTask(Entry request, EntryContainer container, List<String> indexes)
      throws LDAPException {
    super(request);
    this.container = container;
    this.indexes = indexes;
  }

  /** Checks a task entry as added: a base DN the server holds and at least one index. */
  static RebuildTask of(Entry request, Backends backends) throws LDAPException {
    String base = request.getAttributeValue(BASE_DN);
    if (base == null) {
      throw unwilling("the task needs " + BASE_DN);
    }
    DN baseDn;
    try {
      baseDn = new DN(base);
    } catch (LDAPException e) {
      throw unwilling(BASE_DN + " " + base + ": not a DN");
    }
    EntryContainer container = backends.containerFor(baseDn);
    if (container == null || !container.baseDn().equals(baseDn)) {
      throw unwilling(
          BASE_DN + " " + base + ": not a base DN of this server (" + backends.baseDns() + ")");
    }
    String[] values = request.getAttributeValues(INDEX);
    if (values == null || values.length == 0) {
      throw unwilling(
          "the task needs "
              + INDEX
              + ": an attribute, an index name, "
              + REBUILD_ALL
              + " or "
              + REBUILD_DEGRADED);
    }
    List<String> indexes = List.of(values);
    boolean special = indexes.stream().anyMatch(RebuildTask::isSpecial);
    if (special && indexes.size() > 1) {
      throw unwilling(
          REBUILD_ALL + " and " + REBUILD_DEGRADED + " must be the only " + INDEX + " value");
    }
    return new RebuildTask(request, container, indexes);
  }

  private static boolean isSpecial(String value) {
    return value.equalsIgnoreCase(REBUILD_ALL) || value.equalsIgnoreCase(REBUILD_DEGRADED);
  }

  @Override
  String kind() {
    return "Rebuild";
  }

  @Override
  void execute(BooleanSupplier stopping) throws LDAPException {
    total = container.entryCount();
    log(
        "Rebuild of "
            + String.join(", ", indexes)
            + " in "
            + container.baseDn()
            + " started ("
            + total
            + " entries)");
    IndexRebuilder rebuilder = new IndexRebuilder(container);
    java.util.function.LongConsumer progress =
        done -> {
          processed = done;
          if (stopping.getAsBoolean()) {
            log(
                "Stopping after "
                    + processed
                    + " entries; the indexes stay untrusted until rebuilt");
            throw new Stopped();
          }
        };
    String first = indexes.get(0);
    List<String> rebuiltVlv =
        rebuilder.rebuildVlv(
            indexes, first.equalsIgnoreCase(REBUILD_ALL), first.equalsIgnoreCase(REBUILD_DEGRADED));
    List<AttributeIndex> rebuilt =
        first.equalsIgnoreCase(REBUILD_ALL)
            ? rebuilder.rebuildAll(progress)
            : first.equalsIgnoreCase(REBUILD_DEGRADED)
                ? rebuilder.rebuildDegraded(progress)
                : rebuilder.rebuild(indexes, progress);
    List<String> names = new java.util.ArrayList<>(rebuiltVlv);
    rebuilt.forEach(index -> names.add(index.name()));
    log(
        names.isEmpty()
            ? "No index needed a rebuild"
            : "Rebuilt "
                + String.join(", ", names)
                + " from "
                + processed
                + " entries in "
                + (Instant.now().toEpochMilli() - started().toEpochMilli())
                + " ms");
  }

  @Override
  void describe(Entry entry) {
    entry.setAttribute(PROCESSED, Long.toString(processed));
    if (total >= 0) {
      entry.setAttribute(TOTAL, Long.toString(total));
    }
  }

  private static LDAPException unwilling(String message) {
    return ScheduledTask.unwilling("rebuild", message);
  }
}
