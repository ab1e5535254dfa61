package io.rockds.tools.makeldif;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * {@code <base64:text>} (SLAMD): the base64 encoding of the UTF-8 bytes of {@code text}, which may
 * itself hold tags, as in the OID benchmark's {@code photo:: <base64:<random:alphanumeric:1500>>}
 * (a 1500-byte binary value).
 */
record Base64Tag(ValueTemplate text) implements Tag {
  @Override
  public boolean append(EntryContext entry, StringBuilder value) {
    StringBuilder plain = new StringBuilder();
    boolean keep = text.appendBefore(entry, plain);
    value.append(
        Base64.getEncoder().encodeToString(plain.toString().getBytes(StandardCharsets.UTF_8)));
    return keep;
  }
}
