package io.rockds.storage.matching;

/**
 * When an operation's time limit has passed. Long evaluations (a filter of many components over an
 * entry of many values) consult it and give up with UNDEFINED, never a false TRUE; the caller then
 * reports timeLimitExceeded.
 */
@FunctionalInterface
public interface Deadline {
  /** No time limit. */
  Deadline NONE = () -> false;

  boolean passed();
}
