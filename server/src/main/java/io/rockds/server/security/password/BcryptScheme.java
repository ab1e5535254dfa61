package io.rockds.server.security.password;

import java.security.SecureRandom;
import org.bouncycastle.crypto.DataLengthException;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * {@code {BCRYPT}} followed by a standard OpenBSD bcrypt string, {@code $2b$<cost>$<salt><hash>}
 * (60 characters). Reads the {@code $2a$} (OpenDJ, jBCrypt), {@code $2b$} and {@code $2y$}
 * (libxcrypt, PHP) versions, which give the same hash for any password shorter than 256 bytes; we
 * write {@code $2b$}. Like every bcrypt, only the first 72 bytes of a password count.
 *
 * <p>Stored costs above {@link #MAX_COST} are refused (each step doubles the work; 15 is about two
 * seconds on one core), so that a planted value cannot tie up a worker. Bouncy Castle compares the
 * result in constant time.
 */
final class BcryptScheme extends SaltedScheme {

  static final String NAME = "BCRYPT";
  static final int MIN_COST = 4;
  static final int MAX_COST = 15;

  private static final int SALT_BYTES = 16;

  private final int cost;

  /**
   * @param cost the log2 work factor {@link #encode} writes
   */
  BcryptScheme(int cost, SecureRandom random) {
    super(NAME, random);
    this.cost = cost;
  }

  @Override
  public String encode(byte[] clear) {
    return OpenBSDBCrypt.generate("2b", clear, newSalt(SALT_BYTES), cost);
  }

  @Override
  public boolean verify(byte[] clear, String storedWithoutPrefix) {
    if (!hasAcceptableCost(storedWithoutPrefix)) {
      return false;
    }
    try {
      return OpenBSDBCrypt.checkPassword(storedWithoutPrefix, clear);
    } catch (IllegalArgumentException | DataLengthException malformed) {
      return false;
    }
  }

  /** Whether {@code value} looks like a bcrypt string: {@code $2?$NN$} and 60 characters. */
  static boolean isBcryptString(String value) {
    return value.length() == 60
        && value.startsWith("$2")
        && value.charAt(3) == '$'
        && value.charAt(6) == '$';
  }

  private static boolean hasAcceptableCost(String stored) {
    if (!isBcryptString(stored)) {
      return false;
    }
    char tens = stored.charAt(4);
    char units = stored.charAt(5);
    if (tens < '0' || tens > '9' || units < '0' || units > '9') {
      return false;
    }
    int storedCost = (tens - '0') * 10 + (units - '0');
    return storedCost >= MIN_COST && storedCost <= MAX_COST;
  }
}
