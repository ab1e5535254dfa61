package io.rockds.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request of a connection while it runs: the stop flag operations poll, and what abandon (RFC
 * 4511 section 4.11) and cancel (RFC 3909) need to know about it. Abandon only raises the flag, and
 * the operation ends without a response; cancel also asks that the operation answer {@code
 * canceled} (118) if it had not answered yet, and waits for that outcome.
 */
final class RunningOperation {
  private final int messageId;
  private final byte type;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile boolean cancelRequested;
  private volatile boolean responded;
  private volatile boolean cancelled;

  RunningOperation(int messageId, byte type) {
    this.messageId = messageId;
    this.type = type;
  }

  int messageId() {
    return messageId;
  }

  byte type() {
    return type;
  }

  /** The flag operations poll; true once the operation must stop. */
  AtomicBoolean stopFlag() {
    return stop;
  }

  void abandon() {
    stop.set(true);
  }

  void requestCancel() {
    cancelRequested = true;
    stop.set(true);
  }

  void responded() {
    responded = true;
  }

  /**
   * Marks the operation finished; true if it must still answer {@code canceled}: a cancel was
   * requested and it ended without a final response.
   */
  boolean finish() {
    cancelled = cancelRequested && !responded;
    finished.countDown();
    return cancelled;
  }

  /**
   * Waits for the operation to end; true if the cancel took effect, false if it finished anyway.
   */
  boolean awaitCancelled(long timeoutMillis) throws InterruptedException {
    return finished.await(timeoutMillis, TimeUnit.MILLISECONDS) && cancelled;
  }
}
