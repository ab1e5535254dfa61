/**
 * OpenDJ-style tasks under {@code cn=Scheduled Tasks,cn=tasks}: an administrator adds a task entry
 * ({@link io.rockds.server.task.TaskBackend}), the server runs it in the background and the entry,
 * searchable while and after it runs, reports its state, times and log messages. The one task
 * type is the online index rebuild ({@link io.rockds.server.task.RebuildTask}).
 */
package io.rockds.server.task;
