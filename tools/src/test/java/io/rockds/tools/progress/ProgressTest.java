package io.rockds.tools.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ProgressTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  @Test
  void progressLine_showsCountTotalRateAndEta() {
    assertThat(ProgressLine.progress("makeldif", 120_000, 1_000_000, 8 * SECOND))
        .isEqualTo("makeldif: 120000/1000000 entries, 15000/s, ETA 59s");
    assertThat(ProgressLine.progress("import-ldif", 5000, -1, 2 * SECOND))
        .isEqualTo("import-ldif: 5000 entries, 2500/s");
    assertThat(ProgressLine.progress("verify-index", 0, 10, 2 * SECOND))
        .isEqualTo("verify-index: 0/10 entries, 0/s");
  }

  @Test
  void summaryLine_showsCountElapsedAndRate() {
    assertThat(ProgressLine.summary("makeldif", 10_000_002, 1333 * SECOND))
        .isEqualTo("makeldif: 10000002 entries in 22m13s, 7501/s");
    assertThat(ProgressLine.summary("export-ldif", 3, TimeUnit.MILLISECONDS.toNanos(12)))
        .isEqualTo("export-ldif: 3 entries in 12ms, 250/s");
  }

  @Test
  void durations_useTheLargestUnits() {
    assertThat(ProgressLine.duration(TimeUnit.MILLISECONDS.toNanos(850))).isEqualTo("850ms");
    assertThat(ProgressLine.duration(58 * SECOND)).isEqualTo("58s");
    assertThat(ProgressLine.duration(192 * SECOND)).isEqualTo("3m12s");
    assertThat(ProgressLine.duration(7500 * SECOND)).isEqualTo("2h05m");
  }

  @Test
  void lines_areWrittenPeriodicallyThenASummary() throws InterruptedException {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);
    try (Progress progress =
        Progress.start("makeldif", 100, Progress.Display.LINES, out, Duration.ofMillis(5))) {
      progress.step(40);
      for (int i = 0;
          i < 400 && !output.toString(StandardCharsets.UTF_8).contains("makeldif: 40/100");
          i++) {
        Thread.sleep(5);
      }
      progress.step();
      assertThat(progress.count()).isEqualTo(41);
    }

    String[] lines = output.toString(StandardCharsets.UTF_8).split(System.lineSeparator());
    assertThat(Arrays.copyOf(lines, lines.length - 1))
        .allMatch(line -> line.matches("makeldif: \\d+/100 entries, \\d+/s(, ETA .+)?"))
        .anyMatch(line -> line.startsWith("makeldif: 40/100 entries, "));
    assertThat(lines[lines.length - 1]).matches("makeldif: 41 entries in \\S+, \\d+/s");
  }

  /** What makeldif's progress of 10 entries, all made in one step, prints in {@code display}. */
  private static String printedForTenEntries(Progress.Display display, Duration interval) {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    try (Progress progress =
        Progress.start(
            "makeldif",
            10,
            display,
            new PrintStream(output, true, StandardCharsets.UTF_8),
            interval)) {
      progress.step(10);
    }
    return output.toString(StandardCharsets.UTF_8);
  }

  @Test
  void quiet_printsNothing() {
    assertThat(printedForTenEntries(Progress.Display.QUIET, Duration.ofMillis(1))).isEmpty();
  }

  @Test
  void bar_drawsCountsAndEndsWithTheSummary() {
    String text = printedForTenEntries(Progress.Display.BAR, Duration.ofSeconds(1));
    assertThat(text).contains("makeldif 100%").contains("10/10 entries");
    assertThat(text.strip()).containsPattern("\nmakeldif: 10 entries in \\S+, \\d+/s$");
  }
}
