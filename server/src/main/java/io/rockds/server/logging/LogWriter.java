package io.rockds.server.logging;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes lines to a {@link RotatingLogFile}. Asynchronous by default: callers only offer a line to
 * a bounded queue, a daemon thread writes and flushes in batches, and a line that finds the queue
 * full is dropped and counted ({@link #dropped}) so that a slow disk never stalls operations.
 * Synchronous mode writes and flushes under a lock in the caller.
 */
final class LogWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LogWriter.class);
  private static final String STOP = new String("stop");

  private final RotatingLogFile file;
  private final BlockingQueue<String> queue;
  private final Thread thread;
  private final AtomicLong dropped = new AtomicLong();
  private volatile boolean failed;

  LogWriter(String name, RotatingLogFile file, boolean asynchronous, int queueSize) {
    this.file = file;
    if (asynchronous) {
      queue = new ArrayBlockingQueue<>(queueSize + 1);
      thread = new Thread(this::drain, "rockds-log-" + name);
      thread.setDaemon(true);
      thread.start();
    } else {
      queue = null;
      thread = null;
    }
  }

  void write(String line) {
    if (queue == null) {
      synchronized (file) {
        writeNow(List.of(line));
      }
    } else if (queue.remainingCapacity() <= 1 || !queue.offer(line)) {
      // One slot stays free for the stop marker.
      dropped.incrementAndGet();
    }
  }

  /** Lines dropped because the queue was full. */
  long dropped() {
    return dropped.get();
  }

  private void drain() {
    List<String> batch = new ArrayList<>();
    while (true) {
      try {
        String first = queue.poll(1, TimeUnit.SECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, 1024);
        // The marker is compared by identity so that a logged line reading "stop" is not taken for
        // it.
        boolean stop = batch.removeIf(line -> line == STOP);
        writeNow(batch);
        batch.clear();
        if (stop) {
          return;
        }
      } catch (InterruptedException e) {
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
