package io.rockds.server.security.password;

/** Parses the numbers inside stored values (iteration counts, memory costs). */
final class UnsignedDecimal {

  private UnsignedDecimal() {}

  /**
   * ASCII digits only and at most nine of them, so that no sign, no non-ASCII digit that {@link
   * Integer#parseInt} would accept, and no overflow gets through.
   *
   * @throws IllegalArgumentException otherwise
   */
  static int parse(String digits) {
    if (digits.isEmpty()
        || digits.length() > 9
        || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException("not a decimal count: " + digits);
    }
    return Integer.parseInt(digits);
  }
}
