package io.rockds.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * Cuts the inbound byte stream into whole LDAPMessage PDUs, each emitted as a retained slice.
 *
 * <p>Only the outer TLV is read here: the tag must be a universal SEQUENCE (0x30), the length must
 * use the definite form in at most four length octets, and it must not exceed the current limit,
 * which is checked as soon as the length octets are read and before the body is buffered. A
 * declared 2 GiB PDU therefore costs six bytes of memory, not two gigabytes.
 *
 * <p>The limit is read per PDU from an {@link IntSupplier} so that it can grow after a successful
 * bind (256 KiB anonymous, 8 MiB authenticated by default).
 *
 * <p>Time is bounded too, against slow clients that trickle bytes (slowloris): the first PDU must
 * be complete within the read timeout of the connection becoming active (which for LDAPS includes
 * the TLS handshake), and every later PDU within the read timeout of its first byte. A deadline
 * that passes is reported as an {@link LdapCodecException} through {@code exceptionCaught}.
 */
public final class LdapFrameDecoder extends ByteToMessageDecoder {
  private static final int SEQUENCE_TAG = 0x30;
  private static final int MAX_LENGTH_OCTETS = 4;

  private final IntSupplier maxPduBytes;
  private final long readTimeoutNanos;
  private boolean failed;
  private boolean firstPduReceived;
  private ScheduledFuture<?> deadline;

  /**
   * @param readTimeout how long a PDU (and the first one, from connect) may take to arrive; zero
   *     disables the deadline
   */
  public LdapFrameDecoder(IntSupplier maxPduBytes, Duration readTimeout) {
    this.maxPduBytes = maxPduBytes;
    this.readTimeoutNanos = readTimeout.toNanos();
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    if (ctx.channel().isActive()) {
      armDeadline(ctx, "the first request");
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    armDeadline(ctx, "the first request");
    super.channelActive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    super.channelRead(ctx, msg);
    if (failed || !firstPduReceived) {
      return;
    }
    if (actualReadableBytes() == 0) {
      cancelDeadline();
    } else if (deadline == null) {
      armDeadline(ctx, "a request");
    }
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    cancelDeadline();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    cancelDeadline();
    super.channelInactive(ctx);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    int start = in.readerIndex();
    int readable = in.readableBytes();
    if (readable < 2) {
      return;
    }
    int tag = in.getUnsignedByte(start);
    if (tag != SEQUENCE_TAG) {
      throw fail(String.format("expected an LDAPMessage SEQUENCE (tag 0x30), got tag 0x%02x", tag));
    }
    int first = in.getUnsignedByte(start + 1);
    long length;
    int headerBytes;
    if (first < 0x80) {
      length = first;
      headerBytes = 2;
    } else if (first == 0x80) {
      throw fail("indefinite BER length is not allowed in LDAP (RFC 4511 section 5.1)");
    } else {
      int octets = first & 0x7f;
      if (octets > MAX_LENGTH_OCTETS) {
        throw fail(
            "BER length uses " + octets + " octets (expected: at most " + MAX_LENGTH_OCTETS + ")");
      }
      if (readable < 2 + octets) {
        return;
      }
      length = 0;
      for (int i = 0; i < octets; i++) {
        length = (length << 8) | in.getUnsignedByte(start + 2 + i);
      }
      headerBytes = 2 + octets;
    }
    int limit = maxPduBytes.getAsInt();
    if (length > limit) {
      throw fail(
          "PDU of " + length + " bytes exceeds the maximum request size of " + limit + " bytes");
    }
    long total = headerBytes + length;
    if (readable < total) {
      return;
    }
    if (!firstPduReceived) {
      firstPduReceived = true;
      cancelDeadline();
    }
    out.add(in.retainedSlice(start, (int) total));
    in.skipBytes((int) total);
  }

  /** Bytes received and not yet part of a whole PDU. */
  int bufferedBytes() {
    return actualReadableBytes();
  }

  private LdapCodecException fail(String message) {
    failed = true;
    cancelDeadline();
    return new LdapCodecException(message);
  }

  private void armDeadline(ChannelHandlerContext ctx, String what) {
    if (readTimeoutNanos <= 0 || deadline != null) {
      return;
    }
    deadline =
        ctx.executor()
            .schedule(
                () -> {
                  deadline = null;
                  if (ctx.channel().isActive() && !failed) {
                    failed = true;
                    ctx.fireExceptionCaught(
                        new LdapCodecException(
                            what
                                + " was not received within "
                                + Duration.ofNanos(readTimeoutNanos).toMillis()
                                + " ms"));
                  }
                },
                readTimeoutNanos,
                TimeUnit.NANOSECONDS);
  }

  private void cancelDeadline() {
    if (deadline != null) {
      deadline.cancel(false);
      deadline = null;
    }
  }
}
