package io.rockds.storage;

import java.util.TreeSet;

/**
 * The change numbers of a server's changelogs: the next one for a change on a single server, the
 * number of its record in the replicated log for a replicated change. Changes made concurrently may
 * commit out of number order, so it also tells up to which number every change has committed or
 * failed ({@link #settled}): a reader that stops there never skips a change that commits late.
 */
public final class ChangeNumbers {
  /** The largest number handed out or found in a changelog. */
  private long last;

  /** Numbers handed out whose batch has not been written yet. */
  private final TreeSet<Long> pending = new TreeSet<>();

  /**
   * @param last the largest change number already in a changelog (0 when none)
   */
  public ChangeNumbers(long last) {
    this.last = Math.max(0, last);
  }

  /**
   * The number of a change being written: {@code assigned} for a replicated one (the number of its
   * record in the log), else (-1) the next.
   */
  synchronized long claim(long assigned) {
    long number = assigned >= 0 ? assigned : last + 1;
    last = Math.max(last, number);
    pending.add(number);
    return number;
  }

  /** The batch carrying {@code number} was written, or failed. */
  synchronized void finished(long number) {
    pending.remove(number);
  }

  /** Every change numbered up to this one has committed or failed. */
  public synchronized long settled() {
    return pending.isEmpty() ? last : pending.first() - 1;
  }
}
