package io.rockds.tools.task;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.tools.progress.Progress;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Set;

/**
 * Runs an OpenDJ task on a running server: adds its entry below {@code cn=Scheduled
 * Tasks,cn=tasks}, then polls it until it ends, printing its log messages and, when the task
 * reports {@code ds-task-processed-entry-count} of {@code ds-task-total-entry-count}, a progress
 * bar.
 */
public final class ServerTask {
  public static final DN SCHEDULED_TASKS = dn("cn=Scheduled Tasks,cn=tasks");
  public static final String COMPLETED = "COMPLETED_SUCCESSFULLY";
  private static final Set<String> RUNNING = Set.of("WAITING_ON_START_TIME", "RUNNING");
  private static final Duration POLL = Duration.ofMillis(250);
  private static final DateTimeFormatter TASK_ID =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final LDAPConnection connection;
  private final PrintWriter out;
  private final boolean quiet;

  public ServerTask(LDAPConnection connection, PrintWriter out, boolean quiet) {
    this.connection = connection;
    this.out = out;
    this.quiet = quiet;
  }

  /** A new task's DN: {@code ds-task-id=<kind>-<UTC time>,cn=Scheduled Tasks,cn=tasks}. */
  public static DN newTaskDn(String kind) {
    return new DN(
        new RDN("ds-task-id", kind + "-" + TASK_ID.format(Instant.now())), SCHEDULED_TASKS);
  }

  /**
   * Schedules the task and waits for it; returns its entry as it ended ({@code ds-task-state} tells
   * how).
   *
   * @param label names the task in the progress bar, e.g. "rebuild-index"
   */
  public Entry run(Entry task, String label) throws LDAPException, InterruptedException {
    connection.add(task);
    if (!quiet) {
      String id = task.getParsedDN().getRDN().getAttributeValues()[0];
      String kind = id.contains("-") ? id.substring(0, id.indexOf('-')) : "";
      out.println(
          (kind.isEmpty()
                  ? "Task "
                  : Character.toUpperCase(kind.charAt(0)) + kind.substring(1) + " task ")
              + task.getDN()
              + " scheduled");
      out.flush();
    }
    int printed = 0;
    Progress progress = null;
    try {
      while (true) {
        Entry entry = connection.getEntry(task.getDN());
        if (entry == null) {
          throw new LDAPException(
              ResultCode.NO_SUCH_OBJECT,
              "the task entry " + task.getDN() + " disappeared (the server restarted?)");
        }
        printed = printLog(entry, printed);
        Long total = entry.getAttributeValueAsLong("ds-task-total-entry-count");
        if (progress == null && total != null) {
          progress = Progress.start(label, total, quiet);
        }
        Long processed = entry.getAttributeValueAsLong("ds-task-processed-entry-count");
        if (progress != null && processed != null && processed > progress.count()) {
          progress.step(processed - progress.count());
        }
        if (!RUNNING.contains(entry.getAttributeValue("ds-task-state"))) {
          return entry;
        }
        Thread.sleep(POLL.toMillis());
      }
    } finally {
      if (progress != null) {
        progress.close();
      }
    }
  }

  /** Prints the log messages not printed yet; returns how many are printed now. */
  private int printLog(Entry entry, int printed) {
    String[] messages = entry.getAttributeValues("ds-task-log-message");
    int count = messages == null ? 0 : messages.length;
    for (int i = printed; i < count && !quiet; i++) {
      out.println(messages[i]);
    }
    out.flush();
    return Math.max(printed, count);
  }

  private static DN dn(String dn) {
    try {
      return new DN(dn);
    } catch (LDAPException e) {
      throw new IllegalArgumentException(dn, e);
    }
  }
}
