package io.rockds.benchmarks.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SyntheticDirectoryTest {

  private final SyntheticDirectory directory = new SyntheticDirectory();

  @Test
  void indexKeys_areDistinctDeterministicAndFreeOfZeroBytes() {
    List<String> keys = strings(directory.indexKeys(123_456));

    assertThat(keys)
        .doesNotHaveDuplicates()
        .containsAll(
            List.of(
                "objectClass:top",
                "objectClass:inetorgperson",
                "uid:user.123456",
                "mail:user.123456@example.com",
                "mail.sub:@examp",
                "mail.sub:m"))
        .allSatisfy(key -> assertThat(key).doesNotContain("\0"));
    assertThat(strings(directory.indexKeys(123_456))).isEqualTo(keys);
  }

  @Test
  void indexKeys_substringsAreAtMostTheSubstringLength() {
    assertThat(strings(directory.indexKeys(5)))
        .filteredOn(key -> key.contains(".sub:"))
        .isNotEmpty()
        .allSatisfy(
            key ->
                assertThat(key.substring(key.indexOf(':') + 1))
                    .hasSizeLessThanOrEqualTo(SyntheticDirectory.SUBSTRING_LENGTH));
  }

  private static List<String> strings(List<byte[]> keys) {
    return keys.stream().map(key -> new String(key, StandardCharsets.US_ASCII)).toList();
  }
}
