package io.rockds.server.task;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.layout.Instance;
import io.rockds.replication.DaemonThreads;
import io.rockds.server.Backends;
import io.rockds.server.Identity;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.SearchResults;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;
import io.rockds.server.logging.ErrorSeverity;
import io.rockds.server.logging.ServerLogs;
import io.rockds.server.replication.ReplicatedWrites;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The entries under {@code cn=tasks}. Adding an entry below {@code cn=Scheduled Tasks,cn=tasks}
 * schedules a task; tasks run one at a time, in the order added, on a background thread, and their
 * entries stay searchable (the last {@value #FINISHED_KEPT} finished ones) until the server stops.
 * Tasks are not persisted: OpenDJ keeps them in tasks.ldif, RockDS in memory only. Reading tasks
 * needs a root DN or one of the task privileges; scheduling one, OpenDJ's privilege for its kind:
 * {@code ldif-import} for a rebuild, {@code backend-backup} for a backup.
 */
public final class TaskBackend implements DirectoryBackend, AutoCloseable {
  public static final DN TASKS = dn("cn=tasks");
  public static final DN SCHEDULED = dn("cn=Scheduled Tasks,cn=tasks");
  static final String PRIVILEGE = "ldif-import";
  private static final AccessRule ACCESS = AccessRule.privileged(TaskBackend::require);
  static final int FINISHED_KEPT = 100;

  private final Instance instance;
  private final Backends backends;
  private final ServerLogs logs;
  private final Supplier<ReplicatedWrites> replication;
  private final Map<DN, ScheduledTask> tasks = new LinkedHashMap<>();
  private final ExecutorService runner =
      Executors.newSingleThreadExecutor(new DaemonThreads("rockds-task"));
  private volatile boolean stopping;

  /**
   * @param replication the replication group the server is a member of; supplies null when it runs
   *     alone
   */
  public TaskBackend(
      Instance instance,
      Backends backends,
      ServerLogs logs,
      Supplier<ReplicatedWrites> replication) {
    this.instance = instance;
    this.backends = backends;
    this.logs = logs;
    this.replication = replication;
  }

  @Override
  public List<DN> baseDns() {
    return List.of(TASKS);
  }

  @Override
  public AccessRule readAccess() {
    return ACCESS;
  }

  @Override
  public AccessRule writeAccess() {
    return ACCESS;
  }

  @Override
  public Entry get(DN dn) throws LDAPException {
    for (Entry entry : all()) {
      if (entry.getParsedDN().equals(dn)) {
        return entry;
      }
    }
    return null;
  }

  /**
   * Schedules the task an entry describes; it starts as soon as the tasks added before it are done.
   */
  @Override
  public Written add(Update update, Entry entry) throws LDAPException {
    Identity identity = update.identity();
    DN dn = entry.getParsedDN();
    if (dn.equals(TASKS) || dn.equals(SCHEDULED)) {
      throw new LDAPException(
          ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + dn + " already exists");
    }
    if (!SCHEDULED.equals(dn.getParent())) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "a task entry must be an immediate child of " + SCHEDULED,
          SCHEDULED.toString(),
          null);
    }
    ScheduledTask task;
    if (entry.hasObjectClass(RebuildTask.OBJECT_CLASS)) {
      require(identity, PRIVILEGE);
      task = RebuildTask.of(entry, backends);
    } else if (entry.hasObjectClass(BackupTask.OBJECT_CLASS)) {
      require(identity, BackupTask.PRIVILEGE);
      task = BackupTask.of(entry, instance, backends);
    } else if (ReplicationTask.handles(entry)) {
      require(identity, ReplicationTask.PRIVILEGE);
      task = ReplicationTask.of(entry, replication.get());
    } else {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "unsupported task: the tasks this server runs are"
              + " objectClass "
              + RebuildTask.OBJECT_CLASS
              + ", "
              + BackupTask.OBJECT_CLASS
              + ", "
              + ReplicationTask.ADD_SERVER
              + ", "
              + ReplicationTask.REMOVE_SERVER
              + " and "
              + ReplicationTask.SNAPSHOT);
    }
    synchronized (tasks) {
      if (stopping) {
        throw new LDAPException(ResultCode.UNAVAILABLE, "the server is shutting down");
      }
      if (tasks.containsKey(dn)) {
        throw new LDAPException(
            ResultCode.ENTRY_ALREADY_EXISTS, "The entry " + dn + " already exists");
      }
      tasks.put(dn, task);
      forgetOldFinished();
    }
    logs.error(ErrorSeverity.INFO, "TASK", "task " + dn + " scheduled by " + identity.dn());
    runner.execute(
        () -> {
          task.run(() -> stopping);
          logs.error(
              task.state() == TaskState.COMPLETED_SUCCESSFULLY
                  ? ErrorSeverity.INFO
                  : ErrorSeverity.WARNING,
              "TASK",
              "task " + dn + " ended: " + task.state());
        });
    return Written.DONE;
  }

  /** The task entries in scope, with {@code cn=tasks} and {@code cn=Scheduled Tasks} themselves. */
  @Override
  public void search(DN base, SearchScope scope, SearchResults results) throws LDAPException {
    boolean baseExists = false;
    List<Entry> inScope = new ArrayList<>();
    for (Entry entry : all()) {
      DN dn = entry.getParsedDN();
      baseExists |= dn.equals(base);
      if (dn.matchesBaseAndScope(base, scope)) {
        inScope.add(entry);
      }
    }
    if (!baseExists) {
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT,
          "The entry " + base + " does not exist",
          matchedDn(base).toString(),
          null);
    }
    for (Entry entry : inScope) {
      if (!results.inScope(entry)) {
        return;
      }
    }
  }

  @Override
  public DN matchedDn(DN dn) {
    return dn.isDescendantOf(SCHEDULED, false) ? SCHEDULED : TASKS;
  }

  private List<Entry> all() {
    List<Entry> all = new ArrayList<>();
    all.add(container(TASKS));
    all.add(container(SCHEDULED));
    synchronized (tasks) {
      tasks.values().forEach(t -> all.add(t.entry()));
    }
    return all;
  }

  /** Stops the running task between two batches and waits for it, so the backends can close. */
  @Override
  public void close() {
    stop(Duration.ofSeconds(30));
  }

  /**
   * Stops the running task between two batches and waits up to {@code bound} for it; false if it
   * still runs, in which case the backends must not be closed under it.
   */
  public boolean stop(Duration bound) {
    stopping = true;
    runner.shutdown();
    try {
      if (runner.awaitTermination(bound.toMillis(), TimeUnit.MILLISECONDS)) {
        return true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    logs.error(
        ErrorSeverity.WARNING,
        "TASK",
        "a task did not stop within " + bound.toSeconds() + " s of the shutdown");
    return false;
  }

  private void forgetOldFinished() {
    long finished = tasks.values().stream().filter(t -> t.state().isDone()).count();
    for (Iterator<ScheduledTask> it = tasks.values().iterator();
        it.hasNext() && finished > FINISHED_KEPT; ) {
      if (it.next().state().isDone()) {
        it.remove();
        finished--;
      }
    }
  }

  private static Entry container(DN dn) {
    return new Entry(
        dn,
        new Attribute("objectClass", "top", "ds-cfg-branch"),
        new Attribute("cn", dn.getRDN().getAttributeValues()[0]));
  }

  /** Reading tasks (and reaching cn=tasks at all): a root DN or any task privilege. */
  private static void require(Identity identity) throws LDAPException {
    if (!identity.root() && !identity.has(PRIVILEGE) && !identity.has(BackupTask.PRIVILEGE)) {
      throw new LDAPException(
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
          "Reading tasks needs a root DN or the "
              + PRIVILEGE
              + " or "
              + BackupTask.PRIVILEGE
              + " privilege");
    }
  }

  /** Scheduling a task: a root DN or the task's privilege. */
  private static void require(Identity identity, String privilege) throws LDAPException {
    if (!identity.root() && !identity.has(privilege)) {
      throw new LDAPException(
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
          "Scheduling this task needs a root DN or the " + privilege + " privilege");
    }
  }

  private static DN dn(String dn) {
    try {
      return new DN(dn);
    } catch (LDAPException e) {
      throw new IllegalArgumentException(dn, e);
    }
  }
}
