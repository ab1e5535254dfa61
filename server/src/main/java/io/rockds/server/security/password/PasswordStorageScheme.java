package io.rockds.server.security.password;

/**
 * One way of storing a password, known by the name between the braces of a stored value ({@code
 * SSHA512} in {@code {SSHA512}...}). Implementations are stateless and thread-safe.
 */
interface PasswordStorageScheme {

  /** The scheme name as written in stored values, upper case, without braces. */
  String name();

  /** Hashes a clear-text password with a fresh salt; the result has no {@code {SCHEME}} prefix. */
  String encode(byte[] clear);

  /**
   * Whether {@code clear} is the password behind {@code storedWithoutPrefix} (the stored value
   * after its {@code {SCHEME}} prefix). A malformed or out-of-bounds stored value gives {@code
   * false}.
   */
  boolean verify(byte[] clear, String storedWithoutPrefix);

  /**
   * True if {@link #verify} costs about a microsecond (one digest, a comparison), so that it may
   * run where nothing may wait; false for the schemes made slow on purpose (PBKDF2, bcrypt, Argon2,
   * crypt).
   */
  default boolean verifiesQuickly() {
    return false;
  }
}
