package io.rockds.server.security.aci;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An address in an {@code ip} bind rule: an exact address, a CIDR block ({@code 10.0.0.0/8}, {@code
 * ::1/128}) or an IPv4 address with {@code *} octets ({@code 192.168.1.*}).
 */
final class IpPattern {
  private final byte[] network;
  private final int prefixBits;

  private IpPattern(byte[] network, int prefixBits) {
    this.network = network;
    this.prefixBits = prefixBits;
  }

  static IpPattern parse(String text) throws AciSyntaxException {
    String t = text.trim();
    if (t.contains("*")) {
      String[] octets = t.split("\\.", -1);
      if (octets.length != 4) {
        throw new AciSyntaxException("invalid ip pattern \"" + t + "\"");
      }
      byte[] bytes = new byte[4];
      int prefix = 0;
      boolean wild = false;
      for (int i = 0; i < 4; i++) {
        if (octets[i].equals("*")) {
          wild = true;
        } else if (wild) {
          throw new AciSyntaxException(
              "invalid ip pattern \"" + t + "\": '*' must be trailing octets");
        } else {
          bytes[i] = (byte) octet(octets[i], t);
          prefix += 8;
        }
      }
      return new IpPattern(bytes, prefix);
    }
    int slash = t.indexOf('/');
    String address = slash < 0 ? t : t.substring(0, slash);
    if (!address.matches("[0-9a-fA-F:.]+")) {
      throw new AciSyntaxException("invalid ip address \"" + t + "\" (host names are not allowed)");
    }
    byte[] bytes;
    try {
      bytes = InetAddress.getByName(address).getAddress();
    } catch (UnknownHostException e) {
      throw new AciSyntaxException("invalid ip address \"" + t + "\"");
    }
    int prefix = bytes.length * 8;
    if (slash >= 0) {
      try {
        prefix = Integer.parseInt(t.substring(slash + 1));
      } catch (NumberFormatException e) {
        prefix = -1;
      }
      if (prefix < 0 || prefix > bytes.length * 8) {
        throw new AciSyntaxException("invalid prefix length in \"" + t + "\"");
      }
    }
    return new IpPattern(bytes, prefix);
  }

  private static int octet(String s, String whole) throws AciSyntaxException {
    try {
      int v = Integer.parseInt(s);
      if (v >= 0 && v <= 255) {
        return v;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new AciSyntaxException("invalid ip pattern \"" + whole + "\"");
  }

  boolean matches(InetAddress address) {
    byte[] a = address.getAddress();
    if (a.length != network.length) {
      return false;
    }
    int full = prefixBits / 8;
    for (int i = 0; i < full; i++) {
      if (a[i] != network[i]) {
        return false;
      }
    }
    int rest = prefixBits % 8;
    if (rest == 0) {
      return true;
    }
    int mask = (0xFF << (8 - rest)) & 0xFF;
    return (a[full] & mask) == (network[full] & mask);
  }
}
