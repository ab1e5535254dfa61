package io.rockds.replication;

/**
 * The group could not commit a record in time: no leader, or no majority reachable. The record may
 * still be committed later, when the group is whole again.
 */
public final class ReplicationUnavailableException extends Exception {
  private static final long serialVersionUID = 1L;

  public ReplicationUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
