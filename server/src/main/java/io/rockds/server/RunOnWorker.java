package io.rockds.server;

/**
 * Thrown by an operation run inline on an event loop that turns out not to be quick (a search with
 * many candidates, or of a backend without indexes), before it sent anything: the request then runs
 * again from the start on a worker. Carries no stack trace: it is a decision, not a failure.
 */
final class RunOnWorker extends RuntimeException {
  private static final long serialVersionUID = 1L;

  static final RunOnWorker INSTANCE = new RunOnWorker();

  private RunOnWorker() {
    super("run on a worker", null, false, false);
  }
}
