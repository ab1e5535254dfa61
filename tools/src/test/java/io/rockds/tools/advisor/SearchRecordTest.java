package io.rockds.tools.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SearchRecordTest {
  @Test
  void parsesTheCombinedFormat() {
    SearchRecord r =
        SearchRecord.parse(
                "[12/Sep/2016:14:25:31 +0200] SEARCH conn=10 op=1 msgID=2"
                    + " base=\"dc=example,dc=com\" scope=sub filter=\"(objectclass=*)\" attrs=\"+,*\" result=0 nentries=10003"
                    + " unindexed etime=6542")
            .orElseThrow();
    assertThat(r)
        .isEqualTo(
            new SearchRecord("dc=example,dc=com", "sub", "(objectclass=*)", true, 10003, 6542));
  }

  @Test
  void indexedSearch_andEscapedValues() {
    SearchRecord r =
        SearchRecord.parse(
                "[12/Sep/2016:14:25:31 +0200] SEARCH conn=1 op=2 msgID=3"
                    + " base=\"o=a \\\"b\\\"\" scope=one filter=\"(cn=\\\\28x\\\\29)\" attrs=\"ALL\" result=0"
                    + " message=\"not unindexed at all\" nentries=1 etime=0")
            .orElseThrow();
    assertThat(r.unindexed()).isFalse();
    assertThat(r.base()).isEqualTo("o=a \"b\"");
    assertThat(r.filter()).isEqualTo("(cn=\\28x\\29)");
    assertThat(r.scope()).isEqualTo("one");
  }

  @Test
  void otherLinesAreSkipped() {
    assertThat(
            SearchRecord.parse(
                "[12/Sep/2016:14:25:31 +0200] BIND conn=1 op=0 msgID=1 result=0 etime=1"))
        .isEmpty();
    assertThat(SearchRecord.parse("garbage")).isEmpty();
  }
}
