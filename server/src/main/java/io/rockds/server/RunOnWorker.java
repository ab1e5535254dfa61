package io.rockds.server;

/**
 * Thrown by an operation run inline on an event loop that turns out not to be quick (a search with
 * many candidates, of a backend without indexes or needing a group's members; a bind verifying a
 * slow password scheme or writing password policy state), before it sent or changed anything: the
 * request then runs again from the start on a worker. Carries no stack trace: it is a decision, not
 * a failure.
 */
public final class RunOnWorker extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public static final RunOnWorker INSTANCE = new RunOnWorker();

  private RunOnWorker() {
    super("run on a worker", null, false, false);
  }
}
