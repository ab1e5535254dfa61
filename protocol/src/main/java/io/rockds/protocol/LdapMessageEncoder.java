package io.rockds.protocol;

import com.unboundid.asn1.ASN1Buffer;
import com.unboundid.ldap.protocol.LDAPMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.io.IOException;

/** Encodes an {@link LDAPMessage} into BER with a per-thread reusable {@link ASN1Buffer}. */
@Sharable
public final class LdapMessageEncoder extends MessageToByteEncoder<LDAPMessage> {
  private static final ThreadLocal<ASN1Buffer> BUFFERS = ThreadLocal.withInitial(ASN1Buffer::new);

  @Override
  protected void encode(ChannelHandlerContext ctx, LDAPMessage message, ByteBuf out) throws IOException {
    ASN1Buffer buffer = BUFFERS.get();
    buffer.clear();
    message.writeTo(buffer);
    buffer.writeTo(new ByteBufOutputStream(out));
  }
}
