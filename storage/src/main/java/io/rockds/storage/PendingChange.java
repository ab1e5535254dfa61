package io.rockds.storage;

import java.util.function.Supplier;

/**
 * A change being applied, to be recorded in the changelog of its backend by the batch that commits
 * it ({@link Backend#recording}). The description is asked for only then, so that it can include
 * what the application read under its locks (the entry's UUID).
 */
public final class PendingChange {
  private final ChangeNumbers numbers;
  private final long timeMillis;
  private final Supplier<byte[]> description;
  private long number = -1;

  /**
   * @param numbers where its number comes from
   * @param timeMillis when the change was made, for purging by age
   * @param description what the changelog records of it
   */
  public PendingChange(ChangeNumbers numbers, long timeMillis, Supplier<byte[]> description) {
    this.numbers = numbers;
    this.timeMillis = timeMillis;
    this.description = description;
  }

  /** Its change number once its batch committed, else -1. */
  public long number() {
    return number;
  }

  ChangeNumbers numbers() {
    return numbers;
  }

  long timeMillis() {
    return timeMillis;
  }

  byte[] description() {
    return description.get();
  }

  void committed(long committedNumber) {
    this.number = committedNumber;
  }
}
