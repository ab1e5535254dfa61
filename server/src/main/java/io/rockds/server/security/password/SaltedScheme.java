package io.rockds.server.security.password;

import java.security.SecureRandom;
import java.util.Arrays;

/**
 * A scheme that hashes each new password with a fresh random salt: its name and where its salts
 * come from, shared by every scheme but {@code {CLEAR}}.
 */
abstract class SaltedScheme implements PasswordStorageScheme {
  private final String name;
  private final SecureRandom random;

  SaltedScheme(String name, SecureRandom random) {
    this.name = name;
    this.random = random;
  }

  @Override
  public final String name() {
    return name;
  }

  /** A fresh salt of {@code bytes} random bytes. */
  final byte[] newSalt(int bytes) {
    byte[] salt = new byte[bytes];
    random.nextBytes(salt);
    return salt;
  }

  /** A fresh salt of {@code length} characters of {@code alphabet}. */
  final String newSalt(int length, String alphabet) {
    StringBuilder salt = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      salt.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return salt.toString();
  }

  /** {@code hash || salt}, the layout of the digest schemes and of OpenDJ's PBKDF2. */
  static byte[] hashThenSalt(byte[] hash, byte[] salt) {
    byte[] value = Arrays.copyOf(hash, hash.length + salt.length);
    System.arraycopy(salt, 0, value, hash.length, salt.length);
    return value;
  }
}
