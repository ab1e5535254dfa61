package io.rockds.server.security.password;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How {@link PasswordSchemes} hashes and which schemes it accepts.
 *
 * <p>The default scheme is SSHA512: simple bind is on the hot path of most directory traffic and a
 * salted SHA-512 costs about a microsecond, while OpenLDAP (pw-sha2, shipped with Debian's slapd)
 * and OpenDJ both read it. Its weakness is an offline attack on a stolen database, where PBKDF2,
 * bcrypt or Argon2 make each guess thousands of times dearer; choose one of them when that risk
 * outweighs bind throughput.
 *
 * @param defaultScheme the scheme clear-text passwords are hashed with, e.g. {@code SSHA512}
 * @param disabledSchemes schemes that neither encode nor verify (names, any case); {@code CLEAR} by
 *     default, which also covers stored values without a prefix
 * @param pbkdf2Iterations the iteration count written by the PBKDF2 schemes (10,000, OpenLDAP's and
 *     OpenDJ's default)
 * @param bcryptCost the log2 work factor written by BCRYPT
 * @param argon2Cost the parameters written by ARGON2
 */
public record PasswordSchemeSettings(
    String defaultScheme,
    Set<String> disabledSchemes,
    int pbkdf2Iterations,
    int bcryptCost,
    Argon2Cost argon2Cost) {

  /** Validates and normalises scheme names to upper case. */
  public PasswordSchemeSettings {
    defaultScheme = defaultScheme.toUpperCase(Locale.ROOT);
    disabledSchemes =
        disabledSchemes.stream()
            .map(name -> name.toUpperCase(Locale.ROOT))
            .collect(Collectors.toUnmodifiableSet());
    if (pbkdf2Iterations < 1 || pbkdf2Iterations > Pbkdf2Scheme.MAX_ITERATIONS) {
      throw new IllegalArgumentException(
          "pbkdf2Iterations: %d (expected: 1..%d)"
              .formatted(pbkdf2Iterations, Pbkdf2Scheme.MAX_ITERATIONS));
    }
    if (bcryptCost < BcryptScheme.MIN_COST || bcryptCost > BcryptScheme.MAX_COST) {
      throw new IllegalArgumentException(
          "bcryptCost: %d (expected: %d..%d)"
              .formatted(bcryptCost, BcryptScheme.MIN_COST, BcryptScheme.MAX_COST));
    }
    if (disabledSchemes.contains(defaultScheme)) {
      throw new IllegalArgumentException(
          "defaultScheme: " + defaultScheme + " (expected: a scheme that is not disabled)");
    }
  }

  /** SSHA512 by default, CLEAR disabled, 10,000 PBKDF2 iterations, bcrypt cost 10, OWASP Argon2. */
  public static PasswordSchemeSettings defaults() {
    return defaultsWith("SSHA512");
  }

  /** The iterated scheme root passwords are stored with when the policy's scheme is not one. */
  public static final String ROOT_SCHEME = "PBKDF2-SHA256";

  /**
   * The scheme for a root password: {@code scheme} if it is iterated (PBKDF2, BCRYPT, ARGON2), else
   * {@link #ROOT_SCHEME}, so a stolen configuration file does not give the root password away at
   * one hash per guess.
   */
  public static String rootScheme(String scheme) {
    String name = scheme.replace("{", "").replace("}", "").toUpperCase(java.util.Locale.ROOT);
    return name.startsWith("PBKDF2") || name.equals("BCRYPT") || name.equals("ARGON2")
        ? name
        : ROOT_SCHEME;
  }

  /** The default settings with {@code scheme} as the default scheme. */
  public static PasswordSchemeSettings defaultsWith(String scheme) {
    return new PasswordSchemeSettings(
        scheme.replace("{", "").replace("}", ""),
        Set.of(ClearScheme.NAME),
        10_000,
        10,
        Argon2Cost.OWASP);
  }

  /**
   * Argon2 parameters.
   *
   * @param memoryKib memory per hash in KiB ({@code m=})
   * @param passes passes over the memory ({@code t=})
   * @param lanes parallelism ({@code p=})
   */
  public record Argon2Cost(int memoryKib, int passes, int lanes) {

    /** OWASP's 2023 argon2id recommendation, also OpenLDAP's default: 19 MiB, 2 passes, 1 lane. */
    public static final Argon2Cost OWASP = new Argon2Cost(19 * 1024, 2, 1);

    /** Rejects costs that {@link Argon2Scheme} would refuse to verify. */
    public Argon2Cost {
      if (!Argon2Scheme.withinBounds(memoryKib, passes, lanes)) {
        throw new IllegalArgumentException(
            ("argon2Cost: m=%d,t=%d,p=%d (expected: 1 <= p <= %d, 1 <= t <= %d, 8*p <= m <= %d)")
                .formatted(
                    memoryKib,
                    passes,
                    lanes,
                    Argon2Scheme.MAX_LANES,
                    Argon2Scheme.MAX_PASSES,
                    Argon2Scheme.MAX_MEMORY_KIB));
      }
    }
  }
}
