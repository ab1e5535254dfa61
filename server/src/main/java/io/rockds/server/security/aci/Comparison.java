package io.rockds.server.security.aci;

/**
 * The operator of a bind rule: {@code =} and {@code !=} for every keyword, the ordered ones for
 * {@code timeofday} and {@code ssf}.
 */
enum Comparison {
  EQUAL("="),
  NOT_EQUAL("!="),
  LESS("<"),
  LESS_OR_EQUAL("<="),
  GREATER(">"),
  GREATER_OR_EQUAL(">=");

  private final String symbol;

  Comparison(String symbol) {
    this.symbol = symbol;
  }

  String symbol() {
    return symbol;
  }

  boolean isOrdered() {
    return this != EQUAL && this != NOT_EQUAL;
  }

  /** True if {@code actual <operator> expected}. */
  boolean holds(int actual, int expected) {
    int c = Integer.compare(actual, expected);
    return switch (this) {
      case EQUAL -> c == 0;
      case NOT_EQUAL -> c != 0;
      case LESS -> c < 0;
      case LESS_OR_EQUAL -> c <= 0;
      case GREATER -> c > 0;
      case GREATER_OR_EQUAL -> c >= 0;
    };
  }
}
