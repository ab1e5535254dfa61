package io.rockds.server.logging;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes lines to a {@link RotatingLogFile}. Asynchronous by default: callers only offer a line to
 * a bounded queue, a daemon thread writes and flushes in batches, and a line that finds the queue
 * full is dropped and counted ({@link #dropped}) so that a slow disk never stalls operations. The
 * thread wakes every {@value #PERIOD_MILLIS} ms, or when the queue is a quarter full, not for each
 * line: waking it per line cost a context switch and a write system call per operation (a tenth of
 * the server's CPU in a search load). Synchronous mode writes and flushes under a lock in the
 * caller.
 */
final class LogWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LogWriter.class);
  private static final String STOP = new String("stop");
  private static final long PERIOD_MILLIS = 20;

  private final RotatingLogFile file;
  private final BlockingQueue<String> queue;
  private final Thread thread;
  private final AtomicLong dropped = new AtomicLong();

  /** Free slots at or below which an offer wakes the thread instead of waiting for its period. */
  private final int wakeBelow;

  private volatile boolean failed;

  LogWriter(String name, RotatingLogFile file, boolean asynchronous, int queueSize) {
    this.file = file;
    if (asynchronous) {
      queue = new ArrayBlockingQueue<>(queueSize + 1);
      wakeBelow = queueSize * 3 / 4;
      thread = new Thread(this::drain, "rockds-log-" + name);
      thread.setDaemon(true);
      thread.start();
    } else {
      queue = null;
      thread = null;
      wakeBelow = 0;
    }
  }

  void write(String line) {
    if (queue == null) {
      synchronized (file) {
        writeNow(List.of(line));
      }
    } else {
      int free = queue.remainingCapacity();
      // One slot stays free for the stop marker.
      if (free <= 1 || !queue.offer(line)) {
        dropped.incrementAndGet();
      } else if (free <= wakeBelow) {
        LockSupport.unpark(thread);
      }
    }
  }

  /** Lines dropped because the queue was full. */
  long dropped() {
    return dropped.get();
  }

  private void drain() {
    List<String> batch = new ArrayList<>();
    while (!Thread.currentThread().isInterrupted()) {
      if (queue.drainTo(batch, 1024) == 0) {
        LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS));
        continue;
      }
      // The marker is compared by identity so that a logged line reading "stop" is not taken for
      // it.
      boolean stop = batch.removeIf(line -> line == STOP);
      writeNow(batch);
      batch.clear();
      if (stop) {
        return;
      }
    }
  }

  private void writeNow(List<String> lines) {
    try {
      for (String line : lines) {
        file.write(line);
      }
      file.flush();
      failed = false;
    } catch (IOException e) {
      dropped.addAndGet(lines.size());
      if (!failed) {
        LOG.error("cannot write the log: {}", e.toString());
        failed = true;
      }
    }
  }

  /** Writes what is queued, then closes the file. */
  @Override
  public void close() {
    if (thread != null) {
      queue.offer(STOP);
      LockSupport.unpark(thread);
      try {
        thread.join(TimeUnit.SECONDS.toMillis(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (file) {
      try {
        file.close();
      } catch (IOException e) {
        LOG.warn("cannot close the log: {}", e.toString());
      }
    }
  }
}
