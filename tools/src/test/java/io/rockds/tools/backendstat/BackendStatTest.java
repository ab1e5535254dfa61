package io.rockds.tools.backendstat;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.layout.Instance;
import io.rockds.tools.fixtures.SampleInstance;
import io.rockds.tools.fixtures.ToolOutput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every backendstat subcommand on the stopped 10,000-user sample instance, with exact counts. */
class BackendStatTest {
  private static final String PREFIX = "/dc=com,dc=example/";

  @TempDir static Path dir;

  static Instance instance;

  @BeforeAll
  static void copySample() {
    instance = SampleInstance.copyTo(dir.resolve("instance"));
  }

  static ToolOutput backendstat(Instance instance, String... args) {
    ToolOutput output = ToolOutput.runOn(instance, new BackendStat(), args);
    assertThat(output.exitCode()).as(output.err()).isZero();
    return output;
  }

  /**
   * The rows of the first table in {@code out}, keyed by their first cell, cells split on column
   * gaps.
   */
  static Map<String, List<String>> rows(String out) {
    return out.lines()
        .skip(1)
        .takeWhile(l -> !l.isBlank() && !l.startsWith("Total:"))
        .map(l -> Arrays.asList(l.trim().split(" {2,}")))
        .collect(
            Collectors.toMap(
                r -> r.get(0), Function.identity(), (a, b) -> a, java.util.LinkedHashMap::new));
  }

  @Test
  void listBackends_showsUserRoot() {
    ToolOutput o = backendstat(instance, "list-backends");
    assertThat(rows(o.out())).containsOnlyKeys("userRoot");
    assertThat(o.out()).contains("Total: 1");
  }

  @Test
  void listBaseDns_showsTheSuffix() {
    ToolOutput o = backendstat(instance, "list-base-dns", "-n", "userRoot");
    assertThat(rows(o.out())).containsOnlyKeys("dc=example,dc=com");
    assertThat(o.out()).contains("Total: 1");
  }

  @Test
  void listIndexes_countsEveryTreeExactly() {
    ToolOutput o =
        backendstat(instance, "list-indexes", "-b", "dc=example,dc=com", "-n", "userRoot");
    Map<String, List<String>> rows = rows(o.out());
    assertThat(o.out().lines().findFirst().orElseThrow())
        .matches("Index Name +Raw DB Name +Type +Record Count");
    assertThat(rows.get("dn2id")).containsExactly("dn2id", PREFIX + "dn2id", "DN2ID", "10004");
    assertThat(rows.get("id2entry"))
        .containsExactly("id2entry", PREFIX + "id2entry", "ID2Entry", "10004");
    // The group's 10,000 members, one record each, apart from its entry.
    assertThat(rows.get("id2values"))
        .containsExactly("id2values", PREFIX + "id2values", "ID2Values", "10000");
    assertThat(rows.get("id2childrencount").get(3)).isEqualTo("3");
    assertThat(rows.get("uid.caseIgnoreMatch"))
        .containsExactly(
            "uid.caseIgnoreMatch", PREFIX + "uid.caseIgnoreMatch", "MatchingRuleIndex", "10000");
    assertThat(rows.get("sn.caseIgnoreMatch").get(3)).isEqualTo("20");
    assertThat(rows.get("givenName.caseIgnoreMatch").get(3)).isEqualTo("20");
    assertThat(rows.get("cn.caseIgnoreMatch").get(3)).isEqualTo("401");
    assertThat(rows.get("objectClass.objectIdentifierMatch").get(3)).isEqualTo("7");
    assertThat(rows.get("member.distinguishedNameMatch").get(3)).isEqualTo("10000");
    assertThat(rows).hasSize(21);
    assertThat(o.out()).contains("Total: 21");
    assertThat(o.err()).contains("the server is stopped");
  }

  @Test
  void showIndexStatus_listsOverLimitKeysAsTheSeed() {
    ToolOutput o =
        backendstat(instance, "show-index-status", "-n", "userRoot", "-b", "dc=example,dc=com");
    Map<String, List<String>> rows = rows(o.out());
    // Valid, Confidential, Record Count, Over Entry Limit, 95%, 90%, 85%
    assertThat(rows.get("objectClass.objectIdentifierMatch").subList(2, 9))
        .containsExactly("true", "false", "7", "4", "0", "0", "0");
    assertThat(rows.get("sn.caseIgnoreMatch").subList(2, 9))
        .containsExactly("true", "false", "20", "20", "0", "0", "0");
    assertThat(rows.get("uid.caseIgnoreMatch").subList(2, 9))
        .containsExactly("true", "false", "10000", "0", "0", "0", "0");
    assertThat(o.out())
        .contains("Total: 16\n")
        .contains(
            "Index: "
                + PREFIX
                + "objectClass.objectIdentifierMatch\n"
                + "Over index-entry-limit keys: [inetorgperson] [organizationalperson] [person] [top]\n")
        .contains(
            "Index: "
                + PREFIX
                + "mail.caseIgnoreIA5SubstringsMatch:6\n"
                + "Over index-entry-limit keys: [.com] [@examp] [ample.] [com] [e.com] [exampl] [le.com] [m] [mple.c]"
                + " [om] [ple.co] [xample]\n")
        .contains(
            "Index: "
                + PREFIX
                + "sn.caseIgnoreMatch\nOver index-entry-limit keys: [ahmed] [berg] [costa]")
        .doesNotContain("Recoverable");
  }

  @Test
  void dumpIndex_decodesKeysAndIdLists() {
    ToolOutput lee = dumpIndex("sn.caseIgnoreMatch", "-k", "LEE", "-K", "Lee");
    assertThat(lee.out())
        .startsWith("Key (len 3): lee\nValue (len 1): [LIMIT-EXCEEDED]\n")
        .contains("Total Records: 1\n");

    ToolOutput laura = dumpIndex("givenName.caseIgnoreMatch", "-k", "laura", "-K", "laura");
    assertThat(laura.out())
        .containsPattern("Key \\(len 5\\): laura\nValue \\(len \\d+\\): \\[COUNT:500] 15 35 55 ");

    ToolOutput stats = dumpIndex("uid.caseIgnoreMatch", "-q");
    assertThat(stats.out())
        .doesNotContain("Key (len")
        .contains("Total Records: 10000\n")
        .contains("Total / Average Key Size: 88890 bytes / 9 bytes\n");

    ToolOutput hex = dumpIndex("sn.caseIgnoreMatch", "-x", "6c6565", "-X", "6c6565", "-p");
    assertThat(hex.out()).startsWith("Key (len 3): 6c6565\nValue (len 1): ff\n");
  }

  /** dump-index of {@code index} under the sample's base DN, then {@code options}. */
  private static ToolOutput dumpIndex(String index, String... options) {
    List<String> args =
        new ArrayList<>(List.of("dump-index", "-b", "dc=example,dc=com", "-i", index));
    args.addAll(List.of(options));
    return backendstat(instance, args.toArray(String[]::new));
  }

  @Test
  void listRawDbs_sizesEveryColumnFamilyAndListsSstFiles() {
    ToolOutput o = backendstat(instance, "list-raw-dbs", "-n", "userRoot");
    Map<String, List<String>> rows = rows(o.out());
    assertThat(rows.get(PREFIX + "uid.caseIgnoreMatch"))
        .containsExactly(PREFIX + "uid.caseIgnoreMatch", "10000", "88890", "39876", "128766");
    assertThat(rows.get(PREFIX + "sn.caseIgnoreMatch"))
        .containsExactly(PREFIX + "sn.caseIgnoreMatch", "20", "110", "20", "130");
    assertThat(o.out())
        .contains("Total: 21\n")
        .containsPattern("SST File +Raw DB Name +Level +Entries +File Size")
        .containsPattern("\\d{6}\\.sst +/dc=com,dc=example/");
  }

  @Test
  void dumpRawDb_printsHexAndAscii() {
    ToolOutput lines =
        backendstat(instance, "dump-raw-db", "-d", PREFIX + "sn.caseIgnoreMatch", "-l");
    assertThat(lines.out().lines().filter(l -> l.matches("[0-9a-f]+ ff")))
        .hasSize(20)
        .contains("6c6565 ff");

    ToolOutput dump =
        backendstat(
            instance, "dump-raw-db", "-d", PREFIX + "sn.caseIgnoreMatch", "-k", "lee", "-K", "lee");
    assertThat(dump.out())
        .containsPattern("^Key \\(len 3\\):\n  6c 65 65 +lee\nValue \\(len 1\\):\n  ff +\\.\n");
  }

  @Test
  void unknownIndexIsOneLineError() {
    ToolOutput o =
        ToolOutput.runOn(
            instance, new BackendStat(), "dump-index", "-b", "dc=example,dc=com", "-i", "nope");
    assertThat(o.exitCode()).isEqualTo(1);
    assertThat(o.err()).contains("dump-index: -i nope: no such index");
  }
}
