package io.rockds.server.security.password;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * {@code {ARGON2}} followed by a PHC string, as written by OpenLDAP's argon2 module (libargon2 or
 * libsodium): {@code $argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>}, salt and hash in
 * standard base64 without padding. Reads the {@code argon2i}, {@code argon2d} and {@code argon2id}
 * types and the version 16 strings that omit {@code v=}; writes argon2id version 19 with a 16-byte
 * salt and a 32-byte hash, OpenLDAP's own choices.
 *
 * <p>Every verification allocates the stored memory cost, so stored parameters beyond {@link
 * #MAX_MEMORY_KIB}, {@link #MAX_PASSES} and {@link #MAX_LANES} are refused: a planted value must
 * not exhaust the heap. Budget {@code memoryKib} times the number of concurrent binds.
 */
final class Argon2Scheme extends SaltedScheme {

  static final String NAME = "ARGON2";
  static final int MAX_MEMORY_KIB = 256 * 1024;
  static final int MAX_PASSES = 16;
  static final int MAX_LANES = 16;

  private static final int SALT_BYTES = 16;
  private static final int HASH_BYTES = 32;
  private static final int MIN_SALT_BYTES = 8;
  private static final int MIN_HASH_BYTES = 16;
  private static final int MAX_ENCODED_BYTES = 64;

  private final Parameters written;

  /**
   * @param cost the parameters {@link #encode} writes
   */
  Argon2Scheme(PasswordSchemeSettings.Argon2Cost cost, SecureRandom random) {
    super(NAME, random);
    this.written =
        new Parameters(
            Argon2Parameters.ARGON2_id,
            Argon2Parameters.ARGON2_VERSION_13,
            cost.memoryKib(),
            cost.passes(),
            cost.lanes());
  }

  @Override
  public String encode(byte[] clear) {
    byte[] salt = newSalt(SALT_BYTES);
    byte[] hash = written.hash(clear, salt, HASH_BYTES);
    Base64.Encoder base64 = Base64.getEncoder().withoutPadding();
    return "$argon2id$v=19$m=%d,t=%d,p=%d$%s$%s"
        .formatted(
            written.memoryKib(),
            written.passes(),
            written.lanes(),
            base64.encodeToString(salt),
            base64.encodeToString(hash));
  }

  @Override
  public boolean verify(byte[] clear, String storedWithoutPrefix) {
    // "", type, [v=NN,] m=..,t=..,p=.., salt, hash
    String[] fields = storedWithoutPrefix.split("\\$", -1);
    if (fields.length != 5 && fields.length != 6 || !fields[0].isEmpty()) {
      return false;
    }
    int next = 1;
    try {
      int type = type(fields[next++]);
      int version = Argon2Parameters.ARGON2_VERSION_10;
      if (fields.length == 6) {
        version = version(fields[next++]);
      }
      Parameters parameters = Parameters.parse(type, version, fields[next++]);
      byte[] salt = Base64.getDecoder().decode(fields[next++]);
      byte[] hash = Base64.getDecoder().decode(fields[next]);
      if (salt.length < MIN_SALT_BYTES
          || salt.length > MAX_ENCODED_BYTES
          || hash.length < MIN_HASH_BYTES
          || hash.length > MAX_ENCODED_BYTES) {
        return false;
      }
      return MessageDigest.isEqual(parameters.hash(clear, salt, hash.length), hash);
    } catch (IllegalArgumentException malformed) {
      return false;
    }
  }

  /** Argon2's own minimum memory is 8 KiB per lane. */
  static boolean withinBounds(int memoryKib, int passes, int lanes) {
    return lanes >= 1
        && lanes <= MAX_LANES
        && passes >= 1
        && passes <= MAX_PASSES
        && memoryKib >= 8 * lanes
        && memoryKib <= MAX_MEMORY_KIB;
  }

  private static int type(String field) {
    return switch (field) {
      case "argon2id" -> Argon2Parameters.ARGON2_id;
      case "argon2i" -> Argon2Parameters.ARGON2_i;
      case "argon2d" -> Argon2Parameters.ARGON2_d;
      default -> throw new IllegalArgumentException("argon2 type: " + field);
    };
  }

  private static int version(String field) {
    return switch (field) {
      case "v=19" -> Argon2Parameters.ARGON2_VERSION_13;
      case "v=16" -> Argon2Parameters.ARGON2_VERSION_10;
      default -> throw new IllegalArgumentException("argon2 version: " + field);
    };
  }

  /** The cost parameters of one stored value, or of the values we write. */
  private record Parameters(int type, int version, int memoryKib, int passes, int lanes) {

    /**
     * Parses {@code m=..,t=..,p=..}.
     *
     * @throws IllegalArgumentException if malformed or beyond the accepted bounds
     */
    static Parameters parse(int type, int version, String field) {
      String[] costs = field.split(",", -1);
      if (costs.length != 3) {
        throw new IllegalArgumentException("argon2 parameters: " + field);
      }
      int memoryKib = number(costs[0], "m=");
      int passes = number(costs[1], "t=");
      int lanes = number(costs[2], "p=");
      if (!withinBounds(memoryKib, passes, lanes)) {
        throw new IllegalArgumentException("argon2 parameters out of bounds: " + field);
      }
      return new Parameters(type, version, memoryKib, passes, lanes);
    }

    byte[] hash(byte[] clear, byte[] salt, int length) {
      Argon2BytesGenerator generator = new Argon2BytesGenerator();
      generator.init(
          new Argon2Parameters.Builder(type)
              .withVersion(version)
              .withMemoryAsKB(memoryKib)
              .withIterations(passes)
              .withParallelism(lanes)
              .withSalt(salt)
              .build());
      byte[] hash = new byte[length];
      generator.generateBytes(clear, hash);
      return hash;
    }

    private static int number(String field, String key) {
      if (!field.startsWith(key)) {
        throw new IllegalArgumentException("argon2 parameter " + key + ": " + field);
      }
      return UnsignedDecimal.parse(field.substring(key.length()));
    }
  }
}
