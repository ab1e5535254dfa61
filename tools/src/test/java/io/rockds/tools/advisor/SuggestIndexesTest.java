package io.rockds.tools.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.layout.Instance;
import io.rockds.tools.backendstat.BackendStat;
import io.rockds.tools.fixtures.SampleInstance;
import io.rockds.tools.fixtures.ToolOutput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The advisor on the sample instance with an access log written by the test. */
class SuggestIndexesTest {
  @TempDir static Path dir;

  static Instance instance;

  @BeforeAll
  static void copySample() {
    instance = SampleInstance.copyTo(dir.resolve("instance"));
  }

  private static String search(int op, String filter, boolean unindexed, int entries, int etime) {
    return "[22/Nov/2026:19:00:00 +0000] SEARCH conn=7 op="
        + op
        + " msgID="
        + (op + 1)
        + " base=\"ou=People,dc=example,dc=com\" scope=sub filter=\""
        + filter
        + "\" attrs=\"cn,mail\" result=0"
        + " nentries="
        + entries
        + (unindexed ? " unindexed" : "")
        + " etime="
        + etime;
  }

  private static ToolOutput suggest(Path log) {
    return ToolOutput.runOn(
        instance, new BackendStat(), "suggest-indexes", "--accessLog", log.toString());
  }

  @Test
  void frequentUnindexedFilter_getsAnIndex_andAHotKeyGetsALimit() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      lines.add(search(i, "(employeeNumber=" + i + ")", true, 1, 40 + i % 7));
      lines.add(search(1000 + i, "(&(objectClass=person)(sn=Lee))", true, 500, 90));
      lines.add(
          "[22/Nov/2026:19:00:00 +0000] BIND conn=7 op="
              + (2000 + i)
              + " msgID=3 version=3"
              + " dn=\"cn=Directory Manager\" result=0 etime=1");
      lines.add(search(3000 + i, "(uid=user." + i + ")", false, 1, 0));
    }
    for (int i = 0; i < 5; i++) {
      lines.add(search(4000 + i, "(description=rare " + i + ")", true, 0, 300));
    }
    Path log = dir.resolve("access");
    Files.write(log, lines);

    ToolOutput o = suggest(log);
    assertThat(o.exitCode()).as(o.err()).isZero();
    assertThat(o.out())
        .contains("Read 305 searches (205 unindexed)")
        .contains("Add index employeeNumber equality to backend userRoot")
        .contains(
            "Evidence: 100 searches (100 unindexed), e.g. (employeeNumber=0); etime avg 42 ms, max 46 ms")
        .contains(
            "dsconfig create-backend-index --backend-name userRoot --index-name employeeNumber"
                + " --set index-type:equality")
        .contains("rebuild-index --baseDN \"dc=example,dc=com\" --index employeeNumber")
        .contains(
            "Key [lee] of sn.caseIgnoreMatch holds 500 entries, over its limit of "
                + SampleInstance.SN_LIMIT
                + ": raise the limit of sn to 600")
        .contains(
            "dsconfig set-backend-index-prop --backend-name userRoot --index-name sn"
                + " --set index-entry-limit:600")
        .doesNotContain("description")
        .doesNotContain("index-name uid");
    // Indexes to add come before limit changes.
    assertThat(o.out().indexOf("Add index employeeNumber"))
        .isLessThan(o.out().indexOf("Key [lee]"));
  }

  @Test
  void keyHoldingMostEntries_isNotWorthALimit() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      lines.add(search(i, "(objectClass=inetOrgPerson)", true, 10000, 500));
    }
    Path log = dir.resolve("objectclass");
    Files.write(log, lines);
    ToolOutput o = suggest(log);
    assertThat(o.out())
        .contains(
            "Key [inetorgperson] of objectClass.objectIdentifierMatch holds 10000 entries, over"
                + " its limit of 4000: 10000 of 10004 entries are too many for an index to help; keep the limit")
        .doesNotContain("dsconfig");
  }

  @Test
  void fewSearches_areNoEvidence() throws Exception {
    Path log = dir.resolve("few");
    Files.write(log, List.of(search(1, "(employeeNumber=1)", true, 1, 900)));
    assertThat(suggest(log).out())
        .contains("Read 1 searches (1 unindexed)")
        .contains("No suggestion");
  }
}
