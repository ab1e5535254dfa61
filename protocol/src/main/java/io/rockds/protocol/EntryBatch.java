package io.rockds.protocol;

import com.unboundid.asn1.ASN1Buffer;
import com.unboundid.ldap.protocol.LDAPMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.handler.codec.EncoderException;
import java.io.IOException;

/**
 * The search result entries of one operation, encoded on the worker into one buffer and handed to
 * the event loop about {@value #BATCH_BYTES} bytes at a time: one write task per batch instead of
 * one per entry. The final response leaves with the last batch ({@link
 * LdapConnection#send(EntryBatch, LDAPMessage)}), so a search returning one entry costs one
 * hand-off. Used by one thread at a time; whoever adds entries flushes before any other response of
 * the operation (an error result) leaves.
 */
public final class EntryBatch {
  static final int BATCH_BYTES = 16 * 1024;

  private final LdapConnection connection;
  private final ASN1Buffer pending = new ASN1Buffer();

  EntryBatch(LdapConnection connection) {
    this.connection = connection;
  }

  /**
   * Adds an entry (or reference), writing the batch once it is full; false if the connection closed
   * or stayed unwritable for {@code maxWaitMillis}, in which case the caller stops the search.
   */
  public boolean add(LDAPMessage entry, long maxWaitMillis) throws InterruptedException {
    entry.writeTo(pending);
    return pending.length() < BATCH_BYTES ? connection.isOpen() : flush(maxWaitMillis);
  }

  /** Writes the pending entries, as {@link #add} does when the batch is full. */
  public boolean flush(long maxWaitMillis) throws InterruptedException {
    if (pending.length() == 0) {
      return connection.isOpen();
    }
    return connection.write(drainWith(null, connection.alloc()), maxWaitMillis);
  }

  /**
   * The pending entries followed by {@code last} (if any) in one buffer; the batch is empty
   * afterwards.
   */
  ByteBuf drainWith(LDAPMessage last, ByteBufAllocator allocator) {
    if (last != null) {
      last.writeTo(pending);
    }
    ByteBuf out = allocator.buffer(pending.length());
    try {
      pending.writeTo(new ByteBufOutputStream(out));
      return out;
    } catch (IOException | RuntimeException e) {
      out.release();
      throw new EncoderException("cannot encode search results", e);
    } finally {
      pending.clear();
    }
  }
}
