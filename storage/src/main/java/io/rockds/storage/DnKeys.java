package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.RDN;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The dn2id key of a DN: its RDNs from the root down, each preceded by {@code 0x00}, each the UTF-8
 * of the RDN's normalized form with bytes {@code 0x00}, {@code 0x01} and {@code 0x02} escaped by a
 * {@code 0x02}. So {@code uid=bjensen,ou=people,dc=example,dc=com} is {@code
 * \0dc=com\0dc=example\0ou=people\0uid=bjensen}, and the descendants of key K are exactly the keys
 * in {@code [K·00, K·01)}: a subtree is one contiguous range, a one-level scope is that range with
 * grandchildren skipped, and a subtree move rewrites one range.
 */
public final class DnKeys {
  static final byte SEPARATOR = 0x00;

  private DnKeys() {}

  public static byte[] key(DN dn) {
    RDN[] rdns = dn.getRDNs();
    ByteArrayOutputStream out = new ByteArrayOutputStream(dn.toString().length() + rdns.length * 2);
    for (int i = rdns.length - 1; i >= 0; i--) {
      out.write(SEPARATOR);
      for (byte b : rdns[i].toNormalizedString().getBytes(StandardCharsets.UTF_8)) {
        if (b == 0x00 || b == 0x01 || b == 0x02) {
          out.write(0x02);
        }
        out.write(b);
      }
    }
    return out.toByteArray();
  }

  /** First key of the strict descendants of {@code key}. */
  static byte[] descendantsStart(byte[] key) {
    return Bytes.concat(key, new byte[] {0x00});
  }

  /** Key just past the descendants of {@code key}. */
  static byte[] descendantsEnd(byte[] key) {
    return Bytes.concat(key, new byte[] {0x01});
  }

  /** Depth in RDNs of a key: the number of unescaped separators. */
  static int depth(byte[] key) {
    int depth = 0;
    for (int i = 0; i < key.length; i++) {
      if (key[i] == 0x02) {
        i++;
      } else if (key[i] == SEPARATOR) {
        depth++;
      }
    }
    return depth;
  }

  /** Human-readable form for dumps: separators shown as commas, root first. */
  static String toDisplay(byte[] key) {
    StringBuilder sb = new StringBuilder();
    int start = -1;
    for (int i = 0; i <= key.length; i++) {
      if (i == key.length || key[i] == SEPARATOR) {
        if (start >= 0) {
          if (sb.length() > 0) {
            sb.insert(0, ',');
          }
          sb.insert(0, unescape(key, start, i));
        }
        start = i + 1;
      } else if (key[i] == 0x02) {
        i++;
      }
    }
    return sb.toString();
  }

  private static String unescape(byte[] key, int from, int to) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(to - from);
    for (int i = from; i < to; i++) {
      if (key[i] == 0x02 && i + 1 < to) {
        i++;
      }
      out.write(key[i]);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
