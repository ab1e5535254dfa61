package io.rockds.server.security.password;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.security.MessageDigest;

/**
 * {@code {CLEAR}}: the password itself. Disabled unless the configuration enables it, since anyone
 * who can read the entry or a backup then has the password. Payload strings are the stored bytes
 * read as ISO-8859-1, one char per byte, so passwords that are not UTF-8 survive unchanged.
 */
final class ClearScheme implements PasswordStorageScheme {

  static final String NAME = "CLEAR";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean verifiesQuickly() {
    return true;
  }

  @Override
  public String encode(byte[] clear) {
    return new String(clear, ISO_8859_1);
  }

  /**
   * Constant-time in the length of {@code clear}, which the client already knows: {@link
   * MessageDigest#isEqual} walks its first argument whatever the second's length.
   */
  @Override
  public boolean verify(byte[] clear, String storedWithoutPrefix) {
    return MessageDigest.isEqual(clear, storedWithoutPrefix.getBytes(ISO_8859_1));
  }
}
