package io.rockds.replication;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.apache.ratis.protocol.RaftPeerId;

/**
 * A member's ID as Ratis holds it: every character but letters, digits, '.', '-' and '_' is written
 * {@code %XX} (its UTF-8 bytes), so that "127.0.0.1:8989" becomes "127.0.0.1%3A8989". Ratis names
 * its JMX bean after the ID, and a ':' is not allowed in a JMX name (it logged an ERROR at each
 * start before registering a quoted name). The mapping is one-to-one, so the IDs RockDS shows are
 * the ones it was given.
 */
final class RaftPeerIds {
  private RaftPeerIds() {}

  /** The Ratis ID of the member RockDS calls {@code id}. */
  static RaftPeerId of(String id) {
    StringBuilder encoded = new StringBuilder(id.length() + 8);
    for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '.'
          || c == '-'
          || c == '_') {
        encoded.append(c);
      } else {
        encoded.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
      }
    }
    return RaftPeerId.valueOf(encoded.toString());
  }

  /** The ID {@link #of} was given. */
  static String name(RaftPeerId id) {
    String encoded = id.toString();
    ByteArrayOutputStream decoded = new ByteArrayOutputStream(encoded.length());
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      if (c == '%' && i + 2 < encoded.length()) {
        decoded.write(HexFormat.fromHexDigits(encoded, i + 1, i + 3));
        i += 2;
      } else {
        decoded.write(c);
      }
    }
    return decoded.toString(StandardCharsets.UTF_8);
  }
}
