package io.rockds.protocol;

import io.netty.handler.codec.DecoderException;

/**
 * A PDU that cannot be framed or decoded. The connection answers it with a Notice of Disconnection
 * (protocolError) and closes: after a framing error the byte stream cannot be resynchronised.
 */
public final class LdapCodecException extends DecoderException {
  private static final long serialVersionUID = 1L;

  public LdapCodecException(String message) {
    super(message);
  }

  public LdapCodecException(String message, Throwable cause) {
    super(message, cause);
  }
}
