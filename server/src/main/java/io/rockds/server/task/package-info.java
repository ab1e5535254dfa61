/**
 * OpenDJ-style tasks under {@code cn=Scheduled Tasks,cn=tasks}: an administrator adds a task entry
 * ({@link io.rockds.server.task.TaskBackend}), the server runs it in the background and the entry,
 * searchable while and after it runs, reports its state, times and log messages ({@link
 * io.rockds.server.task.ScheduledTask}). The tasks: the online index rebuild ({@link
 * io.rockds.server.task.RebuildTask}) and the online backup ({@link
 * io.rockds.server.task.BackupTask}).
 */
package io.rockds.server.task;
