package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Records as older databases hold them: format 1, every value in the record (written before some
 * attributes were stored apart), and format 2, the attributes stored apart listed without the keys
 * of their values (written before keys were listed).
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
    id2entry.db.put(id2entry.handle, Bytes.longKey(id), encode(c, entry, false));
    Tree values = c.id2entry().values();
    values.db.deleteRange(values.handle, Bytes.longKey(id), Bytes.longKey(id + 1));
    backend.invalidate(id);
  }

  /**
   * Rewrites the record of entry {@code dn} of {@code c} in format 2: its attributes stored apart
   * listed without keys, their values left in {@code id2values}; the entry cache forgets it.
   */
  static void rewriteWithoutKeys(Backend backend, EntryContainer c, Entry entry) throws Exception {
    long id = c.idOf(entry.getParsedDN());
    Tree id2entry = c.id2entry();
    id2entry.db.put(id2entry.handle, Bytes.longKey(id), encode(c, entry, true));
    backend.invalidate(id);
  }

  /**
   * An entry encoded in format 1, every attribute in the record, or in format 2 ({@code apart}),
   * the attributes stored apart listed by description id at the end.
   */
  private static byte[] encode(EntryContainer c, Entry entry, boolean apart) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] dn = entry.getDN().getBytes(StandardCharsets.UTF_8);
    List<Attribute> inline =
        entry.getAttributes().stream()
            .filter(a -> !apart || !Id2Values.isApart(a.getName()))
            .toList();
    ByteBuffer head = ByteBuffer.allocate(16 + dn.length);
    head.put(apart ? EntryCodec.VERSION_2 : EntryCodec.VERSION_1);
    Varint.write(head, dn.length);
    head.put(dn);
    Varint.write(head, inline.size());
    out.write(head.array(), 0, head.position());
    for (Attribute a : inline) {
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
    if (apart) {
      List<Attribute> listed =
          entry.getAttributes().stream().filter(a -> Id2Values.isApart(a.getName())).toList();
      ByteBuffer tail = ByteBuffer.allocate(8 + 8 * listed.size());
      Varint.write(tail, listed.size());
      for (Attribute a : listed) {
        Varint.write(tail, descriptionId(c, a.getName()));
      }
      out.write(tail.array(), 0, tail.position());
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
