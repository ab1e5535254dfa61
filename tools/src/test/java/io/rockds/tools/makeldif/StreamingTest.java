package io.rockds.tools.makeldif;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Entries are written as they are made: 200,000 entries (about 120 MB of LDIF) come out of a JVM
 * limited to a 32 MB heap, which could not hold them.
 */
class StreamingTest {
  @Test
  void twoHundredThousandEntries_streamThroughA32MegabyteHeap() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                List.of(
                    java.toString(),
                    "-Xmx32m",
                    "-XX:TieredStopAtLevel=1",
                    "-cp",
                    System.getProperty("java.class.path"),
                    MakeLdif.class.getName(),
                    "-t",
                    TemplateFile.EXAMPLE,
                    "-c",
                    "numusers=200000",
                    "-o",
                    "-",
                    "--quiet"))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();

    long entries = 0;
    String lastDn = null;
    try (BufferedReader ldif =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = ldif.readLine(); line != null; line = ldif.readLine()) {
        if (line.startsWith("dn: ")) {
          entries++;
          lastDn = line;
        }
      }
    }

    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
    assertThat(entries).isEqualTo(200_002);
    assertThat(lastDn).isEqualTo("dn: uid=user.199999,ou=People,dc=example,dc=com");
  }

  @Test
  void partitionValues_areProducedOneByOneNotStored() throws IOException {
    NumberedValues millionMembers =
        new NumberedValues("uid=user.", new NumberedValues.Range(3, 10, 10_000_000), ",ou=People");
    long[] seen = new long[2];
    millionMembers.forEach(
        value -> {
          seen[0]++;
          seen[1] = Long.parseLong(value.substring(9, value.indexOf(',')));
        });

    assertThat(seen[0]).isEqualTo(1_000_000);
    assertThat(seen[1]).isEqualTo(9_999_993);
  }
}
