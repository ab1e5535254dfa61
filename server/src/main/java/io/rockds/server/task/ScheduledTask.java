package io.rockds.server.task;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.util.StaticUtils;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * What every task under {@code cn=Scheduled Tasks,cn=tasks} has, as OpenDJ shows it: the entry as
 * added, its {@code ds-task-state}, start and completion times and {@code ds-task-log-message}s. A
 * subclass does the work in {@link #execute} and adds its own progress attributes.
 */
abstract class ScheduledTask {
  private static final DateTimeFormatter LOG_TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** Thrown from a progress callback to stop the work between two steps. */
  static final class Stopped extends RuntimeException {
    Stopped() {
      super("the server is shutting down", null, false, false);
    }
  }

  private final Entry request;
  private final DN dn;
  private final Instant scheduled = Instant.now();
  private final List<String> log = new ArrayList<>();
  private volatile TaskState state = TaskState.WAITING_ON_START_TIME;
  private volatile Instant started;
  private volatile Instant completed;

  ScheduledTask(Entry request) throws LDAPException {
    this.request = request;
    this.dn = request.getParsedDN();
  }

  /**
   * Does the work; returns normally on success, throws {@link Stopped} when {@code stopping} said
   * so.
   */
  abstract void execute(BooleanSupplier stopping) throws LDAPException, java.io.IOException;

  /** Adds the task's own progress attributes to its entry. */
  abstract void describe(Entry entry);

  /** A short name for the log lines, e.g. "Rebuild". */
  abstract String kind();

  TaskState state() {
    return state;
  }

  Instant started() {
    return started;
  }

  /** Runs the task; never throws: failures end up in the state and the log messages. */
  final void run(BooleanSupplier stopping) {
    started = Instant.now();
    state = TaskState.RUNNING;
    try {
      execute(stopping);
      finish(TaskState.COMPLETED_SUCCESSFULLY);
    } catch (Stopped e) {
      log("Stopped: the server is shutting down");
      finish(TaskState.STOPPED_BY_SHUTDOWN);
    } catch (LDAPException e) {
      log(kind() + " failed: " + e.getExceptionMessage());
      finish(TaskState.STOPPED_BY_ERROR);
    } catch (java.io.IOException | RuntimeException e) {
      log(kind() + " failed: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
      finish(TaskState.STOPPED_BY_ERROR);
    }
  }

  private void finish(TaskState end) {
    completed = Instant.now();
    state = end;
  }

  final synchronized void log(String message) {
    log.add("[" + LOG_TIME.format(Instant.now()) + "] " + message);
  }

  /** The task entry as a search returns it: the request plus its state, times and log. */
  final synchronized Entry entry() {
    Entry entry = request.duplicate();
    entry.setAttribute("ds-task-id", dn.getRDN().getAttributeValues()[0]);
    entry.setAttribute("ds-task-class-name", getClass().getName());
    entry.setAttribute("ds-task-state", state.name());
    entry.setAttribute("ds-task-scheduled-start-time", time(scheduled));
    if (started != null) {
      entry.setAttribute("ds-task-actual-start-time", time(started));
    }
    if (completed != null) {
      entry.setAttribute("ds-task-completion-time", time(completed));
    }
    describe(entry);
    if (!log.isEmpty()) {
      entry.setAttribute(new Attribute("ds-task-log-message", log));
    }
    return entry;
  }

  private static String time(Instant instant) {
    return StaticUtils.encodeGeneralizedTime(Date.from(instant));
  }

  static LDAPException unwilling(String task, String message) {
    return new LDAPException(ResultCode.UNWILLING_TO_PERFORM, task + " task: " + message);
  }
}
