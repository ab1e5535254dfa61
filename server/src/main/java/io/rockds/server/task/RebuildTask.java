package io.rockds.server.task;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.util.StaticUtils;
import io.rockds.server.Backends;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.maintenance.IndexRebuilder;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * An online index rebuild ({@code objectClass: ds-task-rebuild}), as OpenDJ's rebuild task:
 * {@code ds-task-rebuild-base-dn} names the base DN, each {@code ds-task-rebuild-index} value an
 * attribute (all its indexes), a tree name such as {@code sn.caseIgnoreMatch}, or
 * {@code rebuildAll} / {@code rebuildDegraded}. It runs {@link IndexRebuilder} inside the server
 * while clients keep writing: storage keeps the indexes being rebuilt untrusted (searches ignore
 * them) and consistent with concurrent writes until they are trusted again (see
 * {@code io.rockds.storage.IndexBuild}). A server shutdown stops it between two batches; the
 * indexes then stay untrusted until rebuilt again.
 */
final class RebuildTask {
  static final String OBJECT_CLASS = "ds-task-rebuild";
  static final String BASE_DN = "ds-task-rebuild-base-dn";
  static final String INDEX = "ds-task-rebuild-index";
  static final String REBUILD_ALL = "rebuildAll";
  static final String REBUILD_DEGRADED = "rebuildDegraded";
  /** Progress, for rebuild-index to show: entries indexed so far, of how many when the rebuild started. */
  static final String PROCESSED = "ds-task-processed-entry-count";
  static final String TOTAL = "ds-task-total-entry-count";
  private static final DateTimeFormatter LOG_TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** Thrown from the progress callback to stop the rebuild between two batches. */
  private static final class Stopped extends RuntimeException {
    Stopped() {
      super("the server is shutting down", null, false, false);
    }
  }

  private final Entry request;
  private final DN dn;
  private final EntryContainer container;
  private final List<String> indexes;
  private final Instant scheduled = Instant.now();
  private final List<String> log = new ArrayList<>();
  private volatile TaskState state = TaskState.WAITING_ON_START_TIME;
  private volatile Instant started;
  private volatile Instant completed;
  private volatile long processed;
  private volatile long total = -1;

  private RebuildTask(Entry request, DN dn, EntryContainer container, List<String> indexes) {
    this.request = request;
    this.dn = dn;
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
      throw unwilling(BASE_DN + " " + base + ": not a base DN of this server (" + backends.baseDns() + ")");
    }
    String[] values = request.getAttributeValues(INDEX);
    if (values == null || values.length == 0) {
      throw unwilling("the task needs " + INDEX + ": an attribute, an index name, " + REBUILD_ALL + " or "
          + REBUILD_DEGRADED);
    }
    List<String> indexes = List.of(values);
    boolean special = indexes.stream().anyMatch(RebuildTask::isSpecial);
    if (special && indexes.size() > 1) {
      throw unwilling(REBUILD_ALL + " and " + REBUILD_DEGRADED + " must be the only " + INDEX + " value");
    }
    return new RebuildTask(request, request.getParsedDN(), container, indexes);
  }

  private static boolean isSpecial(String value) {
    return value.equalsIgnoreCase(REBUILD_ALL) || value.equalsIgnoreCase(REBUILD_DEGRADED);
  }


  TaskState state() {
    return state;
  }

  /** Runs the rebuild; never throws: failures end up in the state and the log messages. */
  void run(BooleanSupplier stopping) {
    started = Instant.now();
    state = TaskState.RUNNING;
    try {
      total = container.entryCount();
      log("Rebuild of " + String.join(", ", indexes) + " in " + container.baseDn() + " started (" + total
          + " entries)");
      IndexRebuilder rebuilder = new IndexRebuilder(container);
      java.util.function.LongConsumer progress = done -> {
        processed = done;
        if (stopping.getAsBoolean()) {
          throw new Stopped();
        }
      };
      String first = indexes.get(0);
      List<AttributeIndex> rebuilt = first.equalsIgnoreCase(REBUILD_ALL) ? rebuilder.rebuildAll(progress)
          : first.equalsIgnoreCase(REBUILD_DEGRADED) ? rebuilder.rebuildDegraded(progress)
          : rebuilder.rebuild(indexes, progress);
      log(rebuilt.isEmpty() ? "No index needed a rebuild"
          : "Rebuilt " + String.join(", ", rebuilt.stream().map(AttributeIndex::name).toList()) + " from "
              + processed + " entries in " + (Instant.now().toEpochMilli() - started.toEpochMilli()) + " ms");
      finish(TaskState.COMPLETED_SUCCESSFULLY);
    } catch (Stopped e) {
      log("Stopped after " + processed + " entries: the server is shutting down; the indexes stay untrusted"
          + " until rebuilt");
      finish(TaskState.STOPPED_BY_SHUTDOWN);
    } catch (LDAPException e) {
      log("Rebuild failed: " + e.getExceptionMessage());
      finish(TaskState.STOPPED_BY_ERROR);
    } catch (RuntimeException e) {
      log("Rebuild failed: " + e);
      finish(TaskState.STOPPED_BY_ERROR);
    }
  }

  private void finish(TaskState end) {
    completed = Instant.now();
    state = end;
  }

  private synchronized void log(String message) {
    log.add("[" + LOG_TIME.format(Instant.now()) + "] " + message);
  }

  /** The task entry as a search returns it: the request plus its state, times and log. */
  synchronized Entry entry() {
    Entry entry = request.duplicate();
    entry.setAttribute("ds-task-id", dn.getRDN().getAttributeValues()[0]);
    entry.setAttribute("ds-task-class-name", "io.rockds.server.task.RebuildTask");
    entry.setAttribute("ds-task-state", state.name());
    entry.setAttribute("ds-task-scheduled-start-time", time(scheduled));
    if (started != null) {
      entry.setAttribute("ds-task-actual-start-time", time(started));
    }
    if (completed != null) {
      entry.setAttribute("ds-task-completion-time", time(completed));
    }
    entry.setAttribute(PROCESSED, Long.toString(processed));
    if (total >= 0) {
      entry.setAttribute(TOTAL, Long.toString(total));
    }
    if (!log.isEmpty()) {
      entry.setAttribute(new Attribute("ds-task-log-message", log));
    }
    return entry;
  }

  private static String time(Instant instant) {
    return StaticUtils.encodeGeneralizedTime(Date.from(instant));
  }

  private static LDAPException unwilling(String message) {
    return new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "rebuild task: " + message);
  }
}
