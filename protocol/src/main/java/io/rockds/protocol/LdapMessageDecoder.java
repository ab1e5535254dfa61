package io.rockds.protocol;

import com.unboundid.asn1.ASN1Element;
import com.unboundid.asn1.ASN1Exception;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/**
 * Decodes one framed PDU into an UnboundID {@link LDAPMessage} through the element path. Before
 * decoding, the nesting depth of constructed BER elements is bounded iteratively, because the SDK
 * decodes nested filters recursively and a 10,000-deep filter would otherwise overflow the stack.
 */
public final class LdapMessageDecoder extends MessageToMessageDecoder<ByteBuf> {
  private final int maxBerDepth;

  public LdapMessageDecoder(int maxBerDepth) {
    if (maxBerDepth <= 0) {
      throw new IllegalArgumentException("maxBerDepth: " + maxBerDepth + " (expected: > 0)");
    }
    this.maxBerDepth = maxBerDepth;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
    byte[] bytes = ByteBufUtil.getBytes(frame);
    out.add(decode(bytes, maxBerDepth));
  }

  /** Decodes a whole PDU; throws {@link LdapCodecException} on anything malformed. */
  public static LDAPMessage decode(byte[] pdu, int maxBerDepth) {
    BerDepth.check(pdu, maxBerDepth);
    try {
      return LDAPMessage.decode(ASN1Element.decode(pdu));
    } catch (ASN1Exception | LDAPException e) {
      throw new LdapCodecException("malformed LDAPMessage: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      // The SDK throws unchecked exceptions on some malformed inputs; none may escape as a crash.
      throw new LdapCodecException("malformed LDAPMessage: " + e, e);
    }
  }
}
