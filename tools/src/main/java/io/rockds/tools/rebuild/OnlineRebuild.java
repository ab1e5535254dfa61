package io.rockds.tools.rebuild;

import com.unboundid.ldap.sdk.Attribute;
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
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Rebuilds indexes through a running server: adds an OpenDJ rebuild task entry
 * ({@code objectClass: ds-task-rebuild} below {@code cn=Scheduled Tasks,cn=tasks}), then polls it
 * until it ends, showing its progress and printing its log messages. The server keeps serving,
 * reads and writes included, while it rebuilds.
 */
final class OnlineRebuild {
  private static final DN SCHEDULED_TASKS = dn("cn=Scheduled Tasks,cn=tasks");
  private static final Set<String> RUNNING = Set.of("WAITING_ON_START_TIME", "RUNNING");
  private static final Duration POLL = Duration.ofMillis(250);
  private static final DateTimeFormatter TASK_ID =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final LDAPConnection connection;
  private final PrintWriter out;
  private final boolean quiet;

  OnlineRebuild(LDAPConnection connection, PrintWriter out, boolean quiet) {
    this.connection = connection;
    this.out = out;
    this.quiet = quiet;
  }

  /**
   * Schedules the task and waits for it; returns its final {@code ds-task-state}.
   *
   * @param indexes {@code ds-task-rebuild-index} values: attributes, index names, {@code rebuildAll}
   *     or {@code rebuildDegraded}
   */
  String run(DN base, List<String> indexes) throws LDAPException, InterruptedException {
    DN task = new DN(new RDN("ds-task-id", "rebuild-" + TASK_ID.format(Instant.now())), SCHEDULED_TASKS);
    connection.add(new Entry(task,
        new Attribute("objectClass", "top", "ds-task", "ds-task-rebuild"),
        new Attribute("ds-task-id", task.getRDN().getAttributeValues()[0]),
        new Attribute("ds-task-rebuild-base-dn", base.toString()),
        new Attribute("ds-task-rebuild-index", indexes)));
    if (!quiet) {
      out.println("Rebuild task " + task + " scheduled");
      out.flush();
    }
    int printed = 0;
    Progress progress = null;
    try {
      while (true) {
        Entry entry = connection.getEntry(task.toString());
        if (entry == null) {
          throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "the task entry " + task
              + " disappeared (the server restarted?)");
        }
        printed = printLog(entry, printed);
        Long total = entry.getAttributeValueAsLong("ds-task-total-entry-count");
        if (progress == null && total != null) {
          progress = Progress.start("rebuild-index", total, quiet);
        }
        Long processed = entry.getAttributeValueAsLong("ds-task-processed-entry-count");
        if (progress != null && processed != null && processed > progress.count()) {
          progress.step(processed - progress.count());
        }
        String state = entry.getAttributeValue("ds-task-state");
        if (!RUNNING.contains(state)) {
          return state;
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
