package io.rockds.protocol;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.Arrays;

/**
 * Fuzzes framing and message decoding together: arbitrary bytes, cut into chunks, through {@link
 * LdapFrameDecoder} and {@link LdapMessageDecoder}. The only acceptable failure is an {@link
 * LdapCodecException}; anything else (a runtime exception from the SDK, a stack overflow, an
 * out-of-memory) is a finding, and so is a decoder that keeps bytes after the channel closes.
 *
 * <p>The normal test suite runs this in regression mode over the committed corpus in {@code
 * src/test/resources/io/rockds/protocol/LdapDecoderFuzzTestInputs/framesAndMessages/}. To fuzz for
 * real (minutes to hours; new interesting inputs are added to {@code .cifuzz-corpus/}, findings to
 * the resources directory above):
 *
 * <pre>
 * JAZZER_FUZZ=1 JAZZER_INSTRUMENTATION_INCLUDES='com.unboundid.**:io.rockds.**' \
 *   ./mvnw -B -o -pl protocol -am test -Dtest=LdapDecoderFuzzTest -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Djazzer.max_duration=10m
 * </pre>
 */
class LdapDecoderFuzzTest {
  private static final int MAX_PDU = 64 * 1024;

  @FuzzTest(maxDuration = "5m")
  void framesAndMessages(byte[] input) {
    if (input.length == 0) {
      return;
    }
    // The first byte picks the chunk size, so the fuzzer also explores PDUs split across reads.
    int chunk = 1 + (input[0] & 0xff);
    byte[] stream = Arrays.copyOfRange(input, 1, input.length);
    EmbeddedChannel channel =
        new EmbeddedChannel(
            new LdapFrameDecoder(() -> MAX_PDU, Duration.ZERO),
            new LdapMessageDecoder(ProtocolSettings.DEFAULT_MAX_BER_DEPTH));
    try {
      for (int from = 0; from < stream.length; from += chunk) {
        channel.writeInbound(
            Unpooled.wrappedBuffer(stream, from, Math.min(chunk, stream.length - from)));
      }
    } catch (LdapCodecException expected) {
      // Malformed input is refused; the connection would get a Notice of Disconnection.
    }
    while (channel.readInbound() != null) {
      // Decoded messages are plain objects; nothing to release.
    }
    channel.finishAndReleaseAll();
  }
}
