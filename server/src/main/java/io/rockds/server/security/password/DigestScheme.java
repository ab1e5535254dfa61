package io.rockds.server.security.password;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * The message-digest family: {@code {SSHA}}, {@code {SSHA256}}, {@code {SSHA384}}, {@code
 * {SSHA512}}, {@code {SMD5}} and their unsalted forms {@code {SHA}}, {@code {SHA256}} ... {@code
 * {MD5}}.
 *
 * <p>Layout, shared by OpenLDAP (core and pw-sha2) and OpenDJ: {@code base64(digest(password ||
 * salt) || salt)}, standard alphabet with padding. Readers take any salt length (OpenLDAP writes 4
 * bytes for SSHA and 8 for pw-sha2, OpenDJ 8), so the salt is whatever follows the digest; an
 * unsalted value is exactly one digest long. We write 16-byte salts (NIST SP 800-132's minimum).
 */
final class DigestScheme extends SaltedScheme {

  static final int SALT_BYTES = 16;

  private final String algorithm;
  private final boolean salted;
  private final int digestLength;

  /**
   * @param algorithm a JDK {@link MessageDigest} name such as {@code SHA-512}
   * @param salted whether values carry a salt after the digest
   */
  DigestScheme(String name, String algorithm, boolean salted, SecureRandom random) {
    super(name, random);
    this.algorithm = algorithm;
    this.salted = salted;
    this.digestLength = newDigest().getDigestLength();
  }

  @Override
  public boolean verifiesQuickly() {
    return true;
  }

  @Override
  public String encode(byte[] clear) {
    byte[] salt = newSalt(salted ? SALT_BYTES : 0);
    return Base64.getEncoder().encodeToString(hashThenSalt(digest(clear, salt), salt));
  }

  @Override
  public boolean verify(byte[] clear, String storedWithoutPrefix) {
    byte[] value;
    try {
      value = Base64.getDecoder().decode(storedWithoutPrefix);
    } catch (IllegalArgumentException notBase64) {
      return false;
    }
    boolean wellFormed = salted ? value.length > digestLength : value.length == digestLength;
    if (!wellFormed) {
      return false;
    }
    byte[] salt = Arrays.copyOfRange(value, digestLength, value.length);
    return MessageDigest.isEqual(digest(clear, salt), Arrays.copyOf(value, digestLength));
  }

  private byte[] digest(byte[] clear, byte[] salt) {
    MessageDigest digest = newDigest();
    digest.update(clear);
    digest.update(salt);
    return digest.digest();
  }

  private MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides " + algorithm, e);
    }
  }
}
