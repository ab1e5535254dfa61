package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.util.StaticUtils;
import java.util.Date;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GeneralizedTimesTest {
  @Test
  void formatsAndReadsAsTheSdkDoes() throws Exception {
    Random random = new Random(7);
    long[] fixed = {0L, 951_782_400_000L /* 2000-02-29 */, 4_102_444_799_999L /* 2099-12-31 */};
    for (int i = 0; i < 10_000; i++) {
      long millis = i < fixed.length ? fixed[i] : random.nextLong(0, 4_102_444_800_000L);
      String sdk = StaticUtils.encodeGeneralizedTime(new Date(millis));
      assertThat(GeneralizedTimes.format(millis)).isEqualTo(sdk);
      assertThat(GeneralizedTimes.millis(sdk)).isEqualTo(millis);
    }
  }

  @Test
  void readsOtherFormsThroughTheSdkAndRefusesNonsense() {
    assertThat(GeneralizedTimes.millis("20261128045012Z")).isEqualTo(1_795_841_412_000L);
    assertThat(GeneralizedTimes.millis("20261128055012+0100")).isEqualTo(1_795_841_412_000L);
    // The server's form, but no such day: the SDK decides.
    assertThat(GeneralizedTimes.millis("20260230045012.345Z"))
        .isEqualTo(sdk("20260230045012.345Z"));
    assertThat(GeneralizedTimes.millis("not a time")).isZero();
  }

  private static long sdk(String time) {
    try {
      return StaticUtils.decodeGeneralizedTime(time).getTime();
    } catch (java.text.ParseException e) {
      return 0;
    }
  }

  @Test
  void nowIsTheCurrentTimeInTheServersForm() {
    long before = System.currentTimeMillis();
    String now = GeneralizedTimes.now();
    long after = System.currentTimeMillis();
    assertThat(now).hasSize(19).endsWith("Z");
    assertThat(GeneralizedTimes.millis(now)).isBetween(before, after);
  }
}
