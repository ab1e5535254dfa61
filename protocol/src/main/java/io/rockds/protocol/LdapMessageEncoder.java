package io.rockds.protocol;

import com.unboundid.asn1.ASN1Buffer;
import com.unboundid.ldap.protocol.LDAPMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToByteEncoder;
import java.io.IOException;

/**
 * Encodes an {@link LDAPMessage} into BER with a per-thread reusable {@link ASN1Buffer}.
 *
 * <p>Responses written by workers are encoded on the worker with {@link #encode} before they are
 * written, so Netty counts their real size against the write buffer high water mark at once (an
 * unencoded message would count as a few bytes until the event loop got to it, and a fast search
 * could queue megabytes before the channel turned unwritable) and the CPU cost of encoding is
 * spread over the worker pool instead of the event loop. The pipeline handler covers messages
 * written from the event loop itself, such as notices of disconnection.
 */
@Sharable
public final class LdapMessageEncoder extends MessageToByteEncoder<LDAPMessage> {
  private static final ThreadLocal<ASN1Buffer> BUFFERS = ThreadLocal.withInitial(ASN1Buffer::new);

  @Override
  protected void encode(ChannelHandlerContext ctx, LDAPMessage message, ByteBuf out) {
    ASN1Buffer encoded = encoded(message);
    out.ensureWritable(encoded.length());
    copy(encoded, out);
  }

  /** Encodes {@code message} into a new buffer of exactly its size from {@code allocator}. */
  public static ByteBuf encode(LDAPMessage message, ByteBufAllocator allocator) {
    ASN1Buffer encoded = encoded(message);
    ByteBuf out = allocator.buffer(encoded.length());
    try {
      copy(encoded, out);
      return out;
    } catch (RuntimeException e) {
      out.release();
      throw e;
    }
  }

  /** This thread's buffer holding {@code message} encoded, until the thread encodes another. */
  static ASN1Buffer encoded(LDAPMessage message) {
    ASN1Buffer buffer = BUFFERS.get();
    buffer.clear();
    message.writeTo(buffer);
    return buffer;
  }

  /** Appends what {@code encoded} holds to {@code out}. */
  static void copy(ASN1Buffer encoded, ByteBuf out) {
    try {
      encoded.writeTo(new ByteBufOutputStream(out));
    } catch (IOException e) {
      throw new EncoderException("cannot encode an LDAP message", e);
    }
  }
}
