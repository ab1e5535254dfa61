package io.rockds.benchmarks.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class IdSetCodecTest {

  static Stream<IdSetCodec> codecs() {
    return Stream.of(new DeltaVarintCodec(), new RoaringCodec());
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void encode_roundTripsSortedIds(IdSetCodec codec) {
    long[] ids = {1, 2, 127, 128, 16_384, 999_999, 4_000_000_000L};

    byte[] encoded = codec.encode(ids);

    assertThat(codec.size(encoded)).isEqualTo(ids.length);
    assertThat(idsOf(codec.decode(encoded))).containsExactly(ids);
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void add_insertsInOrderAndIgnoresDuplicates(IdSetCodec codec) {
    byte[] encoded = codec.add(null, 50);
    encoded = codec.add(encoded, 10);
    encoded = codec.add(encoded, 90);
    encoded = codec.add(encoded, 50);

    assertThat(idsOf(codec.decode(encoded))).containsExactly(10, 50, 90);
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void encode_neverLooksLikeTheOverLimitMarker(IdSetCodec codec) {
    assertThat(codec.encode(new long[] {0})).hasSizeGreaterThan(1);
  }

  private static long[] idsOf(IndexRead read) {
    if (read instanceof IndexRead.Bitmap bitmap) {
      return bitmap.ids().stream().mapToLong(Integer::toUnsignedLong).toArray();
    }
    return ((IndexRead.Ids) read).ids();
  }
}
