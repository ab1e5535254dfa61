package io.rockds.tools.progress;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a long task counted in entries. Usage:
 *
 * <pre>
 * try (Progress progress = Progress.start("import-ldif", total, quiet)) {
 *   for (...) { ...; progress.step(); }
 * }
 * </pre>
 *
 * On a terminal it draws a progress bar (count, rate, ETA); otherwise it prints a {@link
 * ProgressLine} to stderr every {@value #LINE_INTERVAL_SECONDS} seconds; quiet, it prints nothing.
 * {@link #close()} prints a summary line unless quiet. {@link #step} is safe to call from many
 * threads and costs one {@link LongAdder} increment.
 */
public final class Progress implements AutoCloseable {
  static final int LINE_INTERVAL_SECONDS = 10;

  /** How progress is shown. */
  enum Display {
    BAR,
    LINES,
    QUIET
  }

  private final String task;
  private final long total;
  private final PrintStream out;
  private final boolean quiet;
  private final LongAdder count = new LongAdder();
  private final long startNanos = System.nanoTime();
  private final ProgressBar bar;
  private final ScheduledExecutorService ticker;
  private boolean closed;

  private Progress(
      String task, long total, Display display, PrintStream out, Duration lineInterval) {
    this.task = task;
    this.total = total;
    this.out = out;
    this.quiet = display == Display.QUIET;
    this.bar = display == Display.BAR ? bar(task, total, out) : null;
    if (display == Display.LINES) {
      ticker =
          Executors.newSingleThreadScheduledExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, task + "-progress");
                thread.setDaemon(true);
                return thread;
              });
      long interval = lineInterval.toMillis();
      ticker.scheduleAtFixedRate(this::printLine, interval, interval, TimeUnit.MILLISECONDS);
    } else {
      ticker = null;
    }
  }

  /**
   * Starts reporting; a bar when {@link System#console()} exists, stderr lines otherwise.
   *
   * @param task the tool name that starts each line, e.g. {@code makeldif}
   * @param total the expected number of entries, or -1 when unknown
   */
  public static Progress start(String task, long total, boolean quiet) {
    Display display =
        quiet ? Display.QUIET : System.console() != null ? Display.BAR : Display.LINES;
    return start(task, total, display, System.err, Duration.ofSeconds(LINE_INTERVAL_SECONDS));
  }

  static Progress start(
      String task, long total, Display display, PrintStream out, Duration lineInterval) {
    return new Progress(task, total, display, out, lineInterval);
  }

  private static ProgressBar bar(String task, long total, PrintStream out) {
    return new ProgressBarBuilder()
        .setTaskName(task)
        .setInitialMax(total)
        .setUnit(" entries", 1)
        .showSpeed()
        .setStyle(ProgressBarStyle.ASCII)
        .setConsumer(new ConsoleProgressBarConsumer(out))
        .build();
  }

  public void step() {
    step(1);
  }

  public void step(long entries) {
    count.add(entries);
    if (bar != null) {
      bar.stepBy(entries);
    }
  }

  /** Entries counted so far. */
  public long count() {
    return count.sum();
  }

  private void printLine() {
    out.println(ProgressLine.progress(task, count.sum(), total, System.nanoTime() - startNanos));
  }

  /** Lets a line being printed finish, so that it does not land after the summary. */
  private void awaitLastLine() {
    try {
      ticker.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the display and prints the summary line, unless quiet. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (ticker != null) {
      ticker.shutdownNow();
      awaitLastLine();
    }
    if (bar != null) {
      bar.close();
      out.println(); // the bar's last render leaves the cursor at the end of its line
    }
    if (!quiet) {
      out.println(ProgressLine.summary(task, count.sum(), System.nanoTime() - startNanos));
    }
    out.flush();
  }
}
