package io.rockds.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.protocol.LDAPMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The frame decoder on an {@link EmbeddedChannel}: PDUs split and joined arbitrarily. */
class LdapFrameDecoderTest {
  private static final int LIMIT = 1024;

  private static EmbeddedChannel channel() {
    return new EmbeddedChannel(new LdapFrameDecoder(() -> LIMIT, Duration.ZERO));
  }

  @Test
  void aPduSplitIntoSingleBytesComesOutWholeAndNothingIsLeftOver() {
    EmbeddedChannel channel = channel();
    byte[] pdu = Pdus.search(7, "cn=split");
    for (int i = 0; i < pdu.length - 1; i++) {
      assertThat(channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {pdu[i]}))).isFalse();
    }
    assertThat(channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {pdu[pdu.length - 1]})))
        .isTrue();
    assertThat(frames(channel)).containsExactly(ByteBufUtil.hexDump(pdu));
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void manyPdusInOneBufferAndSplitAcrossBuffersAllComeOutInOrder() {
    EmbeddedChannel channel = channel();
    List<String> expected = new ArrayList<>();
    byte[] stream = new byte[0];
    for (int id = 1; id <= 20; id++) {
      byte[] pdu = id % 2 == 0 ? Pdus.bind(id) : Pdus.search(id, "cn=" + "x".repeat(id * 10));
      expected.add(ByteBufUtil.hexDump(pdu));
      stream = Pdus.concat(stream, pdu);
    }
    // Cut the stream at awkward places: inside tags, inside multi-byte lengths, across PDUs.
    int[] cuts = {1, 2, 3, 17, 18, 200, 201, 202, stream.length - 1};
    int from = 0;
    for (int cut : cuts) {
      channel.writeInbound(Unpooled.wrappedBuffer(stream, from, cut - from));
      from = cut;
    }
    channel.writeInbound(Unpooled.wrappedBuffer(stream, from, stream.length - from));
    assertThat(frames(channel)).containsExactlyElementsOf(expected);
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void framedPdusDecodeIntoTheSameMessages() {
    EmbeddedChannel channel =
        new EmbeddedChannel(
            new LdapFrameDecoder(() -> LIMIT, Duration.ZERO),
            new LdapMessageDecoder(ProtocolSettings.DEFAULT_MAX_BER_DEPTH));
    channel.writeInbound(Unpooled.wrappedBuffer(Pdus.concat(Pdus.bind(1), Pdus.search(2, "cn=a"))));
    LDAPMessage bind = channel.readInbound();
    LDAPMessage search = channel.readInbound();
    assertThat(bind.getBindRequestProtocolOp().getBindDN()).isEqualTo("cn=x");
    assertThat(search.getMessageID()).isEqualTo(2);
    assertThat(search.getSearchRequestProtocolOp().getBaseDN()).isEqualTo("cn=a");
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void theLengthIsCheckedBeforeTheBodyArrives() {
    EmbeddedChannel channel = channel();
    assertThatThrownBy(
            () ->
                channel.writeInbound(
                    Unpooled.wrappedBuffer(new byte[] {0x30, (byte) 0x82, 0x04, 0x01})))
        .isInstanceOf(LdapCodecException.class)
        .hasMessageContaining("1025 bytes exceeds the maximum request size");
    // After a framing error the stream cannot be resynchronised: later bytes are dropped.
    assertThat(channel.writeInbound(Unpooled.wrappedBuffer(Pdus.bind(1)))).isFalse();
    assertThat(channel.finish()).isFalse();
  }

  @Test
  void lengthsOfMoreThanFourOctetsAndOtherTagsAreRefused() {
    assertThatThrownBy(
            () ->
                channel()
                    .writeInbound(
                        Unpooled.wrappedBuffer(new byte[] {0x30, (byte) 0x85, 0, 0, 0, 0, 1})))
        .isInstanceOf(LdapCodecException.class)
        .hasMessageContaining("5 octets");
    assertThatThrownBy(
            () -> channel().writeInbound(Unpooled.wrappedBuffer(new byte[] {0x04, 0x01, 0x00})))
        .isInstanceOf(LdapCodecException.class)
        .hasMessageContaining("tag 0x04");
  }

  private static List<String> frames(EmbeddedChannel channel) {
    List<String> frames = new ArrayList<>();
    for (ByteBuf frame; (frame = channel.readInbound()) != null; ) {
      frames.add(ByteBufUtil.hexDump(frame));
      frame.release();
    }
    return frames;
  }
}
