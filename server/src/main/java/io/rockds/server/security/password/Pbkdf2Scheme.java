package io.rockds.server.security.password;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * PBKDF2 (RFC 8018) with HMAC-SHA-1, -SHA-256 or -SHA-512, as stored by OpenLDAP's pw-pbkdf2 module
 * ({@code {PBKDF2}}, {@code {PBKDF2-SHA1}}, {@code {PBKDF2-SHA256}}, {@code {PBKDF2-SHA512}}) and
 * by OpenDJ ({@code {PBKDF2}}, {@code {PBKDF2-HMAC-SHA256}}, {@code {PBKDF2-HMAC-SHA512}}).
 *
 * <p>The two servers use different layouts, and both call their SHA-1 variant {@code {PBKDF2}}, so
 * every instance reads both and tells them apart by the separator:
 *
 * <ul>
 *   <li>OpenLDAP: {@code <iterations>$<salt>$<hash>}, salt and hash in "adapted base64" (standard
 *       alphabet with {@code .} for {@code +}, no padding), the hash exactly one PRF output long;
 *       OpenLDAP itself only accepts a 16-byte salt, which is what we write.
 *   <li>OpenDJ: {@code <iterations>:<base64(hash || salt)>}, the hash one PRF output long and the
 *       salt the rest (OpenDJ writes 8 bytes).
 * </ul>
 *
 * <p>An instance writes the layout of the server its name comes from, since only that server can
 * read the name back. Stored iteration counts above {@link #MAX_ITERATIONS} are refused: a value
 * planted by a user who may write their own {@code userPassword} must not cost seconds of CPU per
 * bind.
 *
 * <p>The PRF is the JDK's {@code Mac}, whose SHA-2 compression HotSpot runs on the CPU's SHA
 * instructions: about three times faster than Bouncy Castle's pure-Java digests here (10,000
 * iterations of HMAC-SHA-256: 9 ms vs 25-45 ms), and a PBKDF2 bind is nothing but those iterations.
 */
final class Pbkdf2Scheme extends SaltedScheme {

  /** Above OWASP's 2023 advice (1.3 million for HMAC-SHA-1); about two seconds on one core. */
  static final int MAX_ITERATIONS = 2_000_000;

  static final int SALT_BYTES = 16;

  /** Which server's layout {@link #encode} writes. */
  enum Layout {
    OPENLDAP,
    OPENDJ
  }

  private final String macAlgorithm;
  private final int hashLength;
  private final Layout layout;
  private final int iterations;

  /**
   * @param macAlgorithm the JCA name of the PRF, e.g. {@code HmacSHA256}
   * @param layout the layout {@link #encode} writes
   * @param iterations the iteration count {@link #encode} writes
   */
  Pbkdf2Scheme(
      String name, String macAlgorithm, Layout layout, int iterations, SecureRandom random) {
    super(name, random);
    this.macAlgorithm = macAlgorithm;
    this.hashLength = newMac(new byte[1]).getMacLength();
    this.layout = layout;
    this.iterations = iterations;
  }

  @Override
  public String encode(byte[] clear) {
    byte[] salt = newSalt(SALT_BYTES);
    byte[] hash = derive(clear, salt, iterations);
    return switch (layout) {
      case OPENLDAP -> iterations + "$" + adaptedBase64(salt) + "$" + adaptedBase64(hash);
      case OPENDJ ->
          iterations + ":" + Base64.getEncoder().encodeToString(hashThenSalt(hash, salt));
    };
  }

  @Override
  public boolean verify(byte[] clear, String storedWithoutPrefix) {
    int dollar = storedWithoutPrefix.indexOf('$');
    int colon = storedWithoutPrefix.indexOf(':');
    try {
      if (dollar > 0 && (colon < 0 || dollar < colon)) {
        return verifyOpenLdap(clear, storedWithoutPrefix, dollar);
      }
      if (colon > 0) {
        return verifyOpenDj(clear, storedWithoutPrefix, colon);
      }
      return false;
    } catch (IllegalArgumentException malformed) {
      return false;
    }
  }

  private boolean verifyOpenLdap(byte[] clear, String stored, int firstDollar) {
    int secondDollar = stored.indexOf('$', firstDollar + 1);
    if (secondDollar < 0) {
      return false;
    }
    byte[] salt = fromAdaptedBase64(stored.substring(firstDollar + 1, secondDollar));
    byte[] hash = fromAdaptedBase64(stored.substring(secondDollar + 1));
    return matches(clear, UnsignedDecimal.parse(stored.substring(0, firstDollar)), salt, hash);
  }

  private boolean verifyOpenDj(byte[] clear, String stored, int colon) {
    byte[] hashAndSalt = Base64.getDecoder().decode(stored.substring(colon + 1));
    if (hashAndSalt.length <= hashLength) {
      return false;
    }
    byte[] hash = Arrays.copyOf(hashAndSalt, hashLength);
    byte[] salt = Arrays.copyOfRange(hashAndSalt, hashLength, hashAndSalt.length);
    return matches(clear, UnsignedDecimal.parse(stored.substring(0, colon)), salt, hash);
  }

  private boolean matches(byte[] clear, int storedIterations, byte[] salt, byte[] hash) {
    if (storedIterations < 1 || storedIterations > MAX_ITERATIONS) {
      return false;
    }
    if (salt.length == 0 || hash.length != hashLength) {
      return false;
    }
    return MessageDigest.isEqual(derive(clear, salt, storedIterations), hash);
  }

  /** RFC 8018 section 5.2 for a key one PRF output long: a single block, T1 = U1 ^ U2 ^ ... */
  private byte[] derive(byte[] clear, byte[] salt, int iterationCount) {
    // HMAC pads its key with zeros, so an empty password is the one-zero-byte key the JCA accepts.
    Mac mac = newMac(clear.length == 0 ? new byte[1] : clear);
    mac.update(salt);
    mac.update(new byte[] {0, 0, 0, 1});
    byte[] u = mac.doFinal();
    byte[] t = u.clone();
    try {
      for (int i = 1; i < iterationCount; i++) {
        mac.update(u);
        mac.doFinal(u, 0);
        for (int k = 0; k < t.length; k++) {
          t[k] ^= u[k];
        }
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    return t;
  }

  private Mac newMac(byte[] key) {
    try {
      Mac mac = Mac.getInstance(macAlgorithm);
      mac.init(new SecretKeySpec(key, macAlgorithm));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(macAlgorithm + " is not available: " + e.getMessage(), e);
    }
  }

  private static String adaptedBase64(byte[] bytes) {
    return Base64.getEncoder().withoutPadding().encodeToString(bytes).replace('+', '.');
  }

  private static byte[] fromAdaptedBase64(String text) {
    return Base64.getDecoder().decode(text.replace('.', '+'));
  }
}
