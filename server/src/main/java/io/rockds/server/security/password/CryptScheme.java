package io.rockds.server.security.password;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import org.apache.commons.codec.digest.Crypt;
import org.apache.commons.codec.digest.UnixCrypt;

/**
 * {@code {CRYPT}} followed by a {@code crypt(3)} string, as OpenLDAP writes with {@code
 * password-crypt-salt-format} and as accounts migrated from {@code /etc/shadow} carry. Reads:
 *
 * <ul>
 *   <li>traditional DES (13 characters) and bigcrypt (13 + 11 per further 8 password bytes), which
 *       Debian's slappasswd writes by default: its salt is longer than two characters, so libxcrypt
 *       switches to bigcrypt for passwords longer than 8 bytes. Each bigcrypt block is the DES
 *       crypt of the next 8 bytes, salted with the first two hash characters of the block before;
 *   <li>MD5-crypt ({@code $1$}), SHA-256-crypt ({@code $5$}) and SHA-512-crypt ({@code $6$});
 *   <li>bcrypt ({@code $2a$}, {@code $2b$}, {@code $2y$}), through {@link BcryptScheme}.
 * </ul>
 *
 * DES, MD5 and SHA crypt come from Commons Codec. yescrypt ({@code $y$}, Debian's current shadow
 * default) and the other libxcrypt methods have no Java implementation we trust, so they never
 * match. Writes SHA-512-crypt with a 16-character salt and the default 5000 rounds, which every
 * glibc and libxcrypt reads.
 *
 * <p>SHA-crypt strings may ask for up to 999,999,999 rounds; values above {@link #MAX_ROUNDS} are
 * refused so that a planted value cannot tie up a worker.
 */
final class CryptScheme extends SaltedScheme {

  static final String NAME = "CRYPT";
  static final int MAX_ROUNDS = 1_000_000;

  private static final String SALT_ALPHABET =
      "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  private static final int SALT_CHARS = 16;
  private static final int DES_LENGTH = 13;
  private static final int DES_BLOCK_BYTES = 8;
  private static final int BIGCRYPT_BLOCK_CHARS = 11;

  /** libxcrypt's bigcrypt limit: 128 password bytes. */
  private static final int BIGCRYPT_MAX_BLOCKS = 16;

  private static final String ROUNDS = "rounds=";

  private final BcryptScheme bcrypt;

  /**
   * @param bcrypt verifies the bcrypt strings found in {@code {CRYPT}} values
   */
  CryptScheme(BcryptScheme bcrypt, SecureRandom random) {
    super(NAME, random);
    this.bcrypt = bcrypt;
  }

  @Override
  public String encode(byte[] clear) {
    return shaOrMd5Crypt(clear, "$6$" + newSalt(SALT_CHARS, SALT_ALPHABET));
  }

  @Override
  public boolean verify(byte[] clear, String storedWithoutPrefix) {
    String stored = storedWithoutPrefix;
    if (BcryptScheme.isBcryptString(stored)) {
      return bcrypt.verify(clear, stored);
    }
    String computed;
    try {
      if (stored.startsWith("$1$")) {
        computed = shaOrMd5Crypt(clear, stored);
      } else if (stored.startsWith("$5$") || stored.startsWith("$6$")) {
        computed = hasAcceptableRounds(stored) ? shaOrMd5Crypt(clear, stored) : null;
      } else if (stored.length() == DES_LENGTH && isCryptBase64(stored)) {
        computed = UnixCrypt.crypt(clear, stored);
      } else if (isBigcrypt(stored)) {
        computed = bigcrypt(clear, stored.substring(0, 2));
      } else {
        computed = null;
      }
    } catch (IllegalArgumentException malformed) {
      return false;
    }
    return computed != null
        && MessageDigest.isEqual(computed.getBytes(US_ASCII), stored.getBytes(US_ASCII));
  }

  /** Commons Codec wipes the key array it is given for these methods, hence the copy. */
  private static String shaOrMd5Crypt(byte[] clear, String salt) {
    return Crypt.crypt(clear.clone(), salt);
  }

  private static String bigcrypt(byte[] clear, String salt) {
    int blocks = Math.min(BIGCRYPT_MAX_BLOCKS, Math.max(1, ceilDiv(clear.length, DES_BLOCK_BYTES)));
    StringBuilder result = new StringBuilder(salt);
    String blockSalt = salt;
    for (int block = 0; block < blocks; block++) {
      int from = block * DES_BLOCK_BYTES;
      byte[] chunk = Arrays.copyOfRange(clear, from, Math.min(clear.length, from + 8));
      String hash = UnixCrypt.crypt(chunk, blockSalt).substring(2);
      result.append(hash);
      blockSalt = hash.substring(0, 2);
    }
    return result.toString();
  }

  private static boolean isBigcrypt(String stored) {
    int extra = stored.length() - DES_LENGTH;
    return extra > 0
        && extra % BIGCRYPT_BLOCK_CHARS == 0
        && extra / BIGCRYPT_BLOCK_CHARS < BIGCRYPT_MAX_BLOCKS
        && isCryptBase64(stored);
  }

  private static boolean isCryptBase64(String text) {
    return text.chars().allMatch(c -> SALT_ALPHABET.indexOf(c) >= 0);
  }

  /** {@code $6$rounds=N$salt$hash}: N must be at most {@link #MAX_ROUNDS}. */
  private static boolean hasAcceptableRounds(String stored) {
    if (!stored.startsWith(ROUNDS, 3)) {
      return true;
    }
    int end = stored.indexOf('$', 3 + ROUNDS.length());
    return end > 0
        && UnsignedDecimal.parse(stored.substring(3 + ROUNDS.length(), end)) <= MAX_ROUNDS;
  }

  private static int ceilDiv(int dividend, int divisor) {
    return (dividend + divisor - 1) / divisor;
  }
}
