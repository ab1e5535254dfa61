package io.rockds.replication;

import java.util.Base64;

/**
 * The leader refused a record before appending it ({@link RecordApplier#refusal}); the answer for
 * whoever submitted it travels in the message, as Ratis carries a state machine's exception back to
 * the client by class name and message, and builds it again there from the message alone.
 */
public final class RefusedRecord extends Exception {
  private static final long serialVersionUID = 1L;
  private static final String PREFIX = "record refused before append: ";

  RefusedRecord(byte[] answer) {
    this(PREFIX + Base64.getEncoder().encodeToString(answer));
  }

  /** For Ratis, which builds the exception again on the client side from its message. */
  public RefusedRecord(String message) {
    super(message);
  }

  /** The answer a refusal in {@code failure} (or in its causes) carries; null if none does. */
  static byte[] answerIn(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage();
      int at = message == null ? -1 : message.indexOf(PREFIX);
      if (at >= 0) {
        String encoded = message.substring(at + PREFIX.length()).split("\\s", 2)[0];
        try {
          return Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
          return null;
        }
      }
    }
    return null;
  }
}
