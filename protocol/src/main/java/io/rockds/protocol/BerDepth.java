package io.rockds.protocol;

/**
 * An iterative walk over the TLVs of a framed PDU that bounds the nesting of constructed elements.
 * It never recurses, so hostile nesting cannot exhaust the stack, and it checks every inner length
 * against its enclosing element, so truncated or overlong inner lengths are rejected before the SDK
 * sees them.
 */
final class BerDepth {
  private BerDepth() {}

  static void check(byte[] pdu, int maxDepth) {
    int[] ends = new int[maxDepth + 1];
    int depth = 0;
    ends[0] = pdu.length;
    int pos = 0;
    while (pos < pdu.length) {
      while (depth > 0 && pos == ends[depth]) {
        depth--;
      }
      int tag = pdu[pos++] & 0xff;
      if ((tag & 0x1f) == 0x1f) {
        throw new LdapCodecException("multi-byte BER tags are not used by LDAP");
      }
      if (pos >= pdu.length) {
        throw new LdapCodecException("truncated BER element: no length");
      }
      int first = pdu[pos++] & 0xff;
      long length;
      if (first < 0x80) {
        length = first;
      } else if (first == 0x80) {
        throw new LdapCodecException("indefinite BER length is not allowed in LDAP");
      } else {
        int octets = first & 0x7f;
        if (octets > 4 || pos + octets > pdu.length) {
          throw new LdapCodecException("bad BER length encoding");
        }
        length = 0;
        for (int i = 0; i < octets; i++) {
          length = (length << 8) | (pdu[pos++] & 0xff);
        }
      }
      long end = pos + length;
      if (end > ends[depth]) {
        throw new LdapCodecException(
            "BER element of " + length + " bytes overruns its enclosing element");
      }
      boolean constructed = (tag & 0x20) != 0;
      if (constructed && length > 0) {
        if (depth + 1 > maxDepth) {
          throw new LdapCodecException("BER nesting deeper than " + maxDepth + " levels");
        }
        ends[++depth] = (int) end;
      } else {
        pos = (int) end;
      }
    }
  }
}
