package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Records as databases written before some attributes were stored apart hold them: format 1, every
 * value in the record.
 */
final class LegacyRecords {
  private LegacyRecords() {}

  /**
   * Rewrites entry {@code dn} of {@code c} as an older database stored it: its record in format 1
   * with every attribute inline, no value in {@code id2values}; the entry cache forgets it.
   */
  static void rewriteInline(Backend backend, EntryContainer c, Entry entry) throws Exception {
    long id = c.idOf(entry.getParsedDN());
    Tree id2entry = c.id2entry();
    id2entry.db.put(id2entry.handle, Bytes.longKey(id), formatOne(c, entry));
    Tree values = c.id2entry().values();
    values.db.deleteRange(values.handle, Bytes.longKey(id), Bytes.longKey(id + 1));
    backend.invalidate(id);
  }

  /** An entry encoded in format 1, every attribute in the record. */
  private static byte[] formatOne(EntryContainer c, Entry entry) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] dn = entry.getDN().getBytes(StandardCharsets.UTF_8);
    ByteBuffer head = ByteBuffer.allocate(16 + dn.length);
    head.put(EntryCodec.VERSION_1);
    Varint.write(head, dn.length);
    head.put(dn);
    Varint.write(head, entry.getAttributes().size());
    out.write(head.array(), 0, head.position());
    for (Attribute a : entry.getAttributes()) {
      ByteBuffer attribute = ByteBuffer.allocate(16);
      Varint.write(attribute, descriptionId(c, a.getName()));
      Varint.write(attribute, a.size());
      out.write(attribute.array(), 0, attribute.position());
      for (byte[] value : a.getValueByteArrays()) {
        ByteBuffer length = ByteBuffer.allocate(8);
        Varint.write(length, value.length);
        out.write(length.array(), 0, length.position());
        out.write(value);
      }
    }
    return out.toByteArray();
  }

  private static int descriptionId(EntryContainer c, String description) throws Exception {
    Tree state = c.state();
    byte[] id =
        state.db.get(state.handle, ("adesc/" + description).getBytes(StandardCharsets.UTF_8));
    return (int) Bytes.readLongKey(id, 0);
  }
}
