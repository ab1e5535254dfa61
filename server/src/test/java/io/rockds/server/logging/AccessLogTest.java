package io.rockds.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import io.rockds.config.FilteringCriteriaConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Access log lines, filtering policies and criteria, rotation and the bounded queue. */
class AccessLogTest {
  @TempDir Path dir;

  private static final ZonedDateTime TIME =
      ZonedDateTime.of(2016, 9, 12, 14, 25, 31, 0, ZoneOffset.ofHours(2));

  private static AccessRecord search(boolean unindexed, long etime, int result) {
    Map<String, String> request = new LinkedHashMap<>();
    request.put("base", "dc=example,dc=com");
    request.put("scope", "sub");
    request.put("filter", "(objectclass=*)");
    request.put("attrs", "+,*");
    return new AccessRecord(
        TIME,
        "SEARCH",
        10,
        1,
        2,
        request,
        result,
        null,
        10003,
        unindexed,
        etime,
        "127.0.0.1",
        DN.NULL_DN);
  }

  @Test
  void combinedFormatIsOpenDjsOneLine() {
    assertThat(AccessLogFormat.COMBINED.format(search(true, 6542, 0)))
        .isEqualTo(
            "[12/Sep/2016:14:25:31 +0200] SEARCH conn=10 op=1 msgID=2 base=\"dc=example,dc=com\" scope=sub"
                + " filter=\"(objectclass=*)\" attrs=\"+,*\" result=0 nentries=10003 unindexed etime=6542");
  }

  @Test
  void jsonFormatIsOneObjectPerLineWithEscapedValues() {
    Map<String, String> request = Map.of("dn", "cn=a \"quoted\" name,dc=example,dc=com");
    AccessRecord add =
        new AccessRecord(
            TIME, "ADD", 3, 4, 5, request, 68, "exists\n", -1, false, 1, "127.0.0.1", DN.NULL_DN);
    assertThat(AccessLogFormat.JSON.format(add))
        .isEqualTo(
            "{\"time\":\"2016-09-12T14:25:31+02:00\",\"type\":\"ADD\","
                + "\"conn\":3,\"op\":4,\"msgID\":5,\"request\":{\"dn\":\"cn=a \\\"quoted\\\" name,dc=example,dc=com\"},"
                + "\"result\":68,\"message\":\"exists\\n\",\"unindexed\":false,\"etime\":1,\"client\":\"127.0.0.1\",\"user\":\"\"}");
  }

  private static FilteringCriteriaConfig expensiveSearches(long etime) {
    return new FilteringCriteriaConfig(
        "Expensive Searches",
        Set.of("search"),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        Set.of(),
        Set.of(),
        etime,
        null,
        false,
        null,
        null);
  }

  @Test
  void inclusivePolicyKeepsOnlyUnindexedSearchesSlowerThanTheThreshold() {
    AccessFilter filter = new AccessFilter("inclusive", List.of(expensiveSearches(5000)));
    assertThat(filter.accepts(search(true, 6542, 0))).isTrue();
    assertThat(filter.accepts(search(true, 5000, 0))).isFalse();
    assertThat(filter.accepts(search(false, 9000, 0))).isFalse();
    Map<String, String> dn = Map.of("dn", "cn=x");
    assertThat(
            filter.accepts(
                new AccessRecord(
                    TIME, "ADD", 1, 1, 1, dn, 0, null, -1, false, 9000, "127.0.0.1", DN.NULL_DN)))
        .isFalse();
  }

  @Test
  void exclusivePolicyDropsMatchesAndNoFilteringKeepsAll() {
    FilteringCriteriaConfig successes =
        new FilteringCriteriaConfig(
            "Successes",
            Set.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            Set.of(0),
            Set.of(),
            null,
            null,
            null,
            null,
            null);
    AccessFilter exclusive = new AccessFilter("exclusive", List.of(successes));
    assertThat(exclusive.accepts(search(false, 1, 0))).isFalse();
    assertThat(exclusive.accepts(search(false, 1, 32))).isTrue();
    assertThat(new AccessFilter("no-filtering", List.of(successes)).accepts(search(false, 1, 0)))
        .isTrue();
  }

  @Test
  void userAndClientCriteriaMatchTheBoundUserSubtreeAndAddress() throws Exception {
    FilteringCriteriaConfig people =
        new FilteringCriteriaConfig(
            "People",
            Set.of(),
            List.of("127.0.0.1"),
            List.of(),
            List.of(new DN("ou=People,dc=example,dc=com")),
            List.of(),
            Set.of(),
            Set.of(),
            null,
            null,
            null,
            null,
            null);
    AccessRecord byUser =
        new AccessRecord(
            TIME,
            "BIND",
            1,
            1,
            1,
            Map.of(),
            0,
            null,
            -1,
            false,
            0,
            "127.0.0.1",
            new DN("uid=u,ou=People,dc=example,dc=com"));
    assertThat(AccessFilter.matches(people, byUser)).isTrue();
    assertThat(AccessFilter.matches(people, search(false, 0, 0))).isFalse();
  }

  @Test
  void fileRotatesBySizeAndKeepsTheRetentionCount() throws Exception {
    Path file = dir.resolve("logs").resolve("access");
    try (RotatingLogFile log = new RotatingLogFile(file, 100, 0, 2)) {
      for (int i = 0; i < 20; i++) {
        log.write("line number " + i + " padded to be long enough");
      }
      log.flush();
      assertThat(log.rotatedFiles()).hasSize(2);
    }
    List<String> current = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertThat(current).isNotEmpty().last().isEqualTo("line number 19 padded to be long enough");
    assertThat(Files.size(file)).isLessThan(200);
  }

  @Test
  void fileRotatesWhenOlderThanTheInterval() throws Exception {
    Path file = dir.resolve("errors");
    try (RotatingLogFile log = new RotatingLogFile(file, 0, 1, 0)) {
      log.write("first");
      Thread.sleep(5);
      log.write("second");
      log.flush();
      assertThat(log.rotatedFiles()).hasSize(1);
      assertThat(Files.readAllLines(log.rotatedFiles().get(0), StandardCharsets.UTF_8))
          .containsExactly("first");
    }
    assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).containsExactly("second");
  }

  @Test
  void asynchronousWriterEitherWritesOrCountsEveryLine() throws Exception {
    Path file = dir.resolve("access");
    int lines = 5000;
    LogWriter writer = new LogWriter("test", new RotatingLogFile(file, 0, 0, 0), true, 1);
    for (int i = 0; i < lines; i++) {
      writer.write("line " + i);
    }
    writer.close();
    long written = Files.readAllLines(file, StandardCharsets.UTF_8).size();
    assertThat(written + writer.dropped()).isEqualTo(lines);
    assertThat(written).isPositive();
  }
}
