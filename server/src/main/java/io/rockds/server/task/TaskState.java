package io.rockds.server.task;

/** The {@code ds-task-state} values a task goes through, named as OpenDJ names them. */
public enum TaskState {
  /** Accepted, queued behind the tasks added before it. */
  WAITING_ON_START_TIME,
  RUNNING,
  COMPLETED_SUCCESSFULLY,
  STOPPED_BY_ERROR,
  /** The server stopped while the task ran; what it changed is left as after an error. */
  STOPPED_BY_SHUTDOWN;

  public boolean isDone() {
    return this != WAITING_ON_START_TIME && this != RUNNING;
  }
}
