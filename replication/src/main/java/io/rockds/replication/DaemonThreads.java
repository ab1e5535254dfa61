package io.rockds.replication;

import java.util.concurrent.ThreadFactory;

/**
 * Makes the threads of a background service: named after what they do (as thread dumps show them)
 * and daemons, so that a service its owner did not close keeps no JVM from exiting. Here because
 * the replication module is the lowest one both its own services and the server's can use.
 */
public final class DaemonThreads implements ThreadFactory {
  private final String name;

  /** Threads all named {@code name}. */
  public DaemonThreads(String name) {
    this.name = name;
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    return thread;
  }
}
