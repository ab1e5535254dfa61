package io.rockds.config.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How property values parse: what each syntax accepts, and the figures sizes and durations mean.
 */
class SyntaxTest {
  @Test
  void sizesAreBytesWith1024BasedUnitsAndRefuseOverflow() {
    assertThat(Syntax.SIZE.parse("0")).isZero();
    assertThat(Syntax.SIZE.parse("512")).isEqualTo(512);
    assertThat(Syntax.SIZE.parse("512kb")).isEqualTo(512L << 10);
    assertThat(Syntax.SIZE.parse(" 100 MB ")).isEqualTo(100L << 20);
    assertThat(Syntax.SIZE.parse("2 gb")).isEqualTo(2L << 30);
    assertThat(Syntax.SIZE.parse("999999999999999 gb")).isEqualTo(-1);
    assertThat(Syntax.SIZE.parse("lots")).isEqualTo(-1);
    assertThat(Syntax.SIZE.parse("-1 mb")).isEqualTo(-1);
    assertThat(Syntax.SIZE.accepts("10 tb")).isFalse();
  }

  @Test
  void durationsAreSecondsByDefaultWithUnitsFromMillisecondsToWeeks() {
    assertThat(Syntax.DURATION.parse("30")).isEqualTo(30_000);
    assertThat(Syntax.DURATION.parse("250ms")).isEqualTo(250);
    assertThat(Syntax.DURATION.parse("5 m")).isEqualTo(300_000);
    assertThat(Syntax.DURATION.parse("24 h")).isEqualTo(86_400_000);
    assertThat(Syntax.DURATION.parse("2d")).isEqualTo(172_800_000);
    assertThat(Syntax.DURATION.parse("1 W")).isEqualTo(604_800_000);
    assertThat(Syntax.DURATION.parse("soon")).isEqualTo(-1);
    assertThat(Syntax.DURATION.accepts("1 y")).isFalse();
  }

  @Test
  void booleansTakeOpenDjsSpellingsAndNothingElse() {
    for (String yes : new String[] {"true", "YES", "on", "1"}) {
      assertThat(Syntax.BooleanSyntax.parse(yes)).as(yes).isTrue();
    }
    for (String no : new String[] {"false", "No", "off", "0"}) {
      assertThat(Syntax.BooleanSyntax.parse(no)).as(no).isFalse();
    }
    assertThat(new Syntax.BooleanSyntax().accepts("maybe")).isFalse();
  }

  @Test
  void integersHoldTheirBoundsAndSayThemWhenRefused() {
    Syntax port = new Syntax.IntegerSyntax(0, 65535);
    assertThat(port.accepts("65535")).isTrue();
    assertThat(port.accepts("65536")).isFalse();
    assertThat(port.accepts("-1")).isFalse();
    assertThat(port.accepts("12ab")).isFalse();
    assertThat(port.expected()).isEqualTo("an integer from 0 to 65535");
    assertThat(new Syntax.IntegerSyntax(0, Integer.MAX_VALUE).expected())
        .isEqualTo("an integer of at least 0");
  }

  @Test
  void aDefaultTheSyntaxRefusesCannotBeDeclared() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                PropertyDefinition.of(
                    "size-limit", new Syntax.IntegerSyntax(0, 10), "lots", ApplyMode.LIVE, "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("size-limit")
        .hasMessageContaining("an integer from 0 to 10");
  }
}
