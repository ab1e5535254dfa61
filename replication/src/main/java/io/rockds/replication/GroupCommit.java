package io.rockds.replication;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Group commit of the records submitted through one member: while {@link #MAX_IN_FLIGHT} entries of
 * this member are on their way (sent to the leader, committed, applied there), the records
 * submitted meanwhile queue; once one is answered, every record queued goes to the group as one log
 * entry ({@link RecordBatch}), up to {@link #MAX_RECORDS} records and {@link #MAX_BYTES} bytes. A
 * record submitted while fewer entries are on their way goes at once: nothing waits for company, so
 * one client pays nothing.
 *
 * <p>Why: a follower of Ratis 3.2 syncs the leader's append requests one after another
 * (RATIS-2235), so a group commits a few entries per follower sync whatever the number of clients;
 * records sharing an entry share that sync. An entry travels on the thread of one of its submitters
 * (Ratis' blocking API, so that the writes of different members stay independent requests); when it
 * is answered, that thread hands its turn to the first record queued, whose thread sends the next
 * entry.
 */
final class GroupCommit {
  /**
   * At most this many records in an entry: bounds how long the apply thread spends on one entry
   * (and the reply's size); far more than the clients a member usually has in flight.
   */
  static final int MAX_RECORDS = 256;

  /**
   * At most this many entries of this member on their way at once, as many as the default worker
   * pool runs writes at once (twice the cores, at least 8): measured on a loaded two-core machine,
   * a group's rate followed how many entries were on their way, not how many records each held (1
   * or 4 at a time with group commit took 2 to 4 times fewer writes a second than 8 records alone,
   * benchmarks/RESULTS.md), so group commit only gathers the writes beyond those.
   */
  static final int MAX_IN_FLIGHT = 8;

  /**
   * At most this many bytes of records in an entry (a record larger still travels alone, as
   * before): far below gRPC's message limit (64 MB) and Ratis' log queue limits, and small enough
   * that an append request carries several such entries.
   */
  static final int MAX_BYTES = 1 << 20;

  /** Sends one log entry to the group on the calling thread and returns what became of it. */
  @FunctionalInterface
  interface Sender {
    Sent send(byte[] entry) throws ReplicationUnavailableException, InterruptedException;
  }

  /**
   * What became of an entry, or of one record of it: committed at {@code index} with the leader's
   * answer, or refused by the leader before it was appended ({@code index} -1, the refusal).
   */
  record Sent(long index, byte[] answer) {
    boolean refused() {
      return index < 0;
    }
  }

  private final Sender sender;
  private final ArrayDeque<Pending> queue = new ArrayDeque<>(); // guarded by this
  private int turns; // guarded by this: submitters sending an entry, or handed the turn to

  GroupCommit(Sender sender) {
    this.sender = sender;
  }

  /**
   * Submits {@code record} and returns what became of it, once its entry was answered.
   *
   * @throws TimeoutException when it was not answered before {@code deadline} (System.nanoTime): it
   *     may still be committed later, if its entry was on its way
   */
  Sent submit(byte[] record, long deadline)
      throws ReplicationUnavailableException, InterruptedException, TimeoutException {
    Pending mine = new Pending(record);
    synchronized (this) {
      queue.add(mine);
      if (turns < MAX_IN_FLIGHT) {
        turns++;
        mine.giveTurn();
      }
    }
    try {
      while (!mine.done()) {
        if (mine.hasTurn()) {
          sendQueued(mine);
        } else if (!mine.await(deadline)) {
          abandon(mine);
          throw new TimeoutException();
        }
      }
    } catch (InterruptedException e) {
      abandon(mine);
      throw e;
    }
    releaseTurn(mine); // handed the turn, but answered in another submitter's entry first
    return mine.result();
  }

  /** How many records wait for an entry on its way to be answered. */
  synchronized int queued() {
    return queue.size();
  }

  /** How many entries are on their way (or about to be sent). */
  synchronized int onTheirWay() {
    return turns;
  }

  /**
   * Sends the records queued first as one entry and answers them; then, once {@code mine} was
   * answered or is on its way in another submitter's entry, hands the turn on.
   */
  private void sendQueued(Pending mine) {
    List<Pending> entry = new ArrayList<>();
    synchronized (this) {
      long bytes = 0;
      while (!queue.isEmpty() && entry.size() < MAX_RECORDS) {
        Pending next = queue.peek();
        if (!entry.isEmpty() && bytes + next.record.length > MAX_BYTES) {
          break;
        }
        bytes += next.record.length;
        entry.add(queue.poll());
      }
    }
    try {
      if (!entry.isEmpty()) {
        answer(entry);
      }
    } finally {
      synchronized (this) {
        if (mine.done() || !queue.contains(mine)) {
          releaseTurn(mine);
        }
      }
    }
  }

  private void answer(List<Pending> entry) {
    try {
      if (entry.size() == 1) {
        entry.get(0).complete(sender.send(entry.get(0).record));
        return;
      }
      List<byte[]> records = new ArrayList<>(entry.size());
      entry.forEach(p -> records.add(p.record));
      Sent sent = sender.send(RecordBatch.encode(records));
      if (sent.refused()) {
        // The leader refused a record of it before appending it: each alone, for its own answer.
        for (Pending p : entry) {
          p.complete(sender.send(p.record));
        }
        return;
      }
      List<byte[]> answers = RecordBatch.decode(sent.answer());
      if (answers.size() != entry.size()) {
        throw new ReplicationUnavailableException(
            "the leader answered " + answers.size() + " records of " + entry.size(), null);
      }
      for (int i = 0; i < entry.size(); i++) {
        entry.get(i).complete(new Sent(sent.index(), answers.get(i)));
      }
    } catch (ReplicationUnavailableException e) {
      entry.forEach(p -> p.fail(e));
    } catch (InterruptedException e) {
      // This submitter's thread was interrupted; the others learn their write's fate is unknown.
      Thread.currentThread().interrupt();
      entry.forEach(
          p ->
              p.fail(
                  new ReplicationUnavailableException(
                      "interrupted while the replication group committed the write", e)));
    } catch (RuntimeException e) {
      entry.forEach(
          p ->
              p.fail(
                  new ReplicationUnavailableException(
                      "the replication group could not commit the write: " + e, e)));
    }
  }

  /**
   * Hands the free turns to the first records queued without one, which send the next entries; a
   * turn left free goes to the next record submitted.
   */
  private void handOn() {
    for (Pending next : queue) {
      if (turns >= MAX_IN_FLIGHT) {
        return;
      }
      if (!next.hasTurn()) {
        turns++;
        next.giveTurn();
      }
    }
  }

  /** A submitter gives up waiting: its record leaves the queue, and its turn if it had one. */
  private synchronized void abandon(Pending mine) {
    queue.remove(mine);
    releaseTurn(mine);
  }

  private synchronized void releaseTurn(Pending mine) {
    if (mine.holdsTurn()) {
      mine.endTurn();
      turns--;
      handOn();
    }
  }

  /** One submitted record and its submitter's wait. */
  private static final class Pending {
    final byte[] record;
    private boolean turn;
    private boolean done;
    private Sent sent;
    private ReplicationUnavailableException failure;

    Pending(byte[] record) {
      this.record = record;
    }

    synchronized void giveTurn() {
      turn = true;
      notifyAll();
    }

    synchronized boolean hasTurn() {
      return turn && !done;
    }

    synchronized boolean holdsTurn() {
      return turn;
    }

    synchronized void endTurn() {
      turn = false;
    }

    synchronized boolean done() {
      return done;
    }

    synchronized void complete(Sent answer) {
      sent = answer;
      done = true;
      notifyAll();
    }

    synchronized void fail(ReplicationUnavailableException e) {
      if (!done) {
        failure = e;
        done = true;
        notifyAll();
      }
    }

    /** Waits until answered or given the turn; false once {@code deadline} passed first. */
    synchronized boolean await(long deadline) throws InterruptedException {
      while (!done && !turn) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return true;
    }

    synchronized Sent result() throws ReplicationUnavailableException {
      if (failure != null) {
        throw failure;
      }
      return sent;
    }
  }
}
