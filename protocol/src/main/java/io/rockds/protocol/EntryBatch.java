package io.rockds.protocol;

import com.unboundid.asn1.ASN1Buffer;
import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Attribute;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.function.Consumer;

/**
 * The search result entries of one operation, encoded on the worker straight into the buffer that
 * is written, and handed to the event loop about {@value #BATCH_BYTES} bytes at a time: one write
 * task per batch instead of one per entry. The final response leaves with the last batch ({@link
 * LdapConnection#send(EntryBatch, LDAPMessage)}), so a search returning one entry costs one
 * hand-off. Used by one thread at a time; whoever adds entries flushes before any other response of
 * the operation (an error result) leaves: a flush or a drain hands the buffer on, so none is left
 * behind.
 */
public final class EntryBatch {
  static final int BATCH_BYTES = 16 * 1024;

  /** Room left after a batch's first message for the final response that may follow it. */
  private static final int RESPONSE_HEADROOM = 64;

  private static final ThreadLocal<SearchEntryEncoder> ENTRY_ENCODERS =
      ThreadLocal.withInitial(SearchEntryEncoder::new);

  private final LdapConnection connection;

  /** The encoded messages not yet written; null while there are none. */
  private ByteBuf pending;

  EntryBatch(LdapConnection connection) {
    this.connection = connection;
  }

  /**
   * Adds a search result entry without controls (message {@code messageId}, {@code attributes} as
   * they are to be returned), writing the batch once it is full; false if the connection closed or
   * stayed unwritable for {@code maxWaitMillis}, in which case the caller stops the search (the
   * batch is then empty: what it held is dropped).
   */
  public boolean addEntry(int messageId, String dn, List<Attribute> attributes, long maxWaitMillis)
      throws InterruptedException {
    SearchEntryEncoder encoder = ENTRY_ENCODERS.get();
    encoder.start(messageId, dn);
    for (Attribute attribute : attributes) {
      encoder.attribute(attribute.getName());
      for (ASN1OctetString value : attribute.getRawValues()) {
        encoder.value(value);
      }
    }
    return add(encoder, maxWaitMillis);
  }

  /**
   * Adds a search result entry without controls whose DN is {@code dnLength} bytes of UTF-8 at
   * {@code dnOffset} of {@code dn}, and whose attributes and values {@code contents} gives the
   * encoder it is handed; otherwise as {@link #addEntry(int, String, List, long)}.
   */
  public boolean addEntry(
      int messageId,
      byte[] dn,
      int dnOffset,
      int dnLength,
      Consumer<SearchEntryEncoder> contents,
      long maxWaitMillis)
      throws InterruptedException {
    SearchEntryEncoder encoder = ENTRY_ENCODERS.get();
    encoder.start(messageId, dn, dnOffset, dnLength);
    contents.accept(encoder);
    return add(encoder, maxWaitMillis);
  }

  private boolean add(SearchEntryEncoder encoder, long maxWaitMillis) throws InterruptedException {
    encoder.writeTo(room(encoder.finish()));
    if (pending.readableBytes() >= BATCH_BYTES) {
      return flush(maxWaitMillis);
    }
    if (connection.isOpen()) {
      return true;
    }
    discard();
    return false;
  }

  /** Writes the pending entries, as {@link #addEntry} does when the batch is full. */
  public boolean flush(long maxWaitMillis) throws InterruptedException {
    if (pending == null) {
      return connection.isOpen();
    }
    return connection.write(drainWith(null), maxWaitMillis);
  }

  /**
   * The pending entries followed by {@code last} (if any) in one buffer, the caller's to write or
   * release; the batch is empty afterwards.
   */
  ByteBuf drainWith(LDAPMessage last) {
    try {
      if (last != null) {
        append(last);
      }
    } catch (RuntimeException e) {
      discard();
      throw e;
    }
    ByteBuf out = pending == null ? Unpooled.EMPTY_BUFFER : pending;
    pending = null;
    return out;
  }

  private void append(LDAPMessage message) {
    ASN1Buffer encoded = LdapMessageEncoder.encoded(message);
    LdapMessageEncoder.copy(encoded, room(encoded.length()));
  }

  private void discard() {
    if (pending != null) {
      pending.release();
      pending = null;
    }
  }

  /** The pending buffer with room for {@code bytes} more, allocated with the first message. */
  private ByteBuf room(int bytes) {
    if (pending == null) {
      pending = connection.alloc().buffer(bytes + RESPONSE_HEADROOM);
    } else {
      pending.ensureWritable(bytes);
    }
    return pending;
  }
}
