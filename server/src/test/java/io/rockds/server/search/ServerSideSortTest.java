package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.ServerSideSortResponseControl;
import com.unboundid.ldap.sdk.controls.SortKey;
import com.unboundid.ldap.sdk.schema.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerSideSortTest {
  private static List<Long> order(SortKey key, Entry... entries) throws Exception {
    ServerSideSort sort =
        ServerSideSort.from(
            new ServerSideSortRequestControl(key), Schema.getDefaultStandardSchema());
    List<ServerSideSort.Sortable> sortables = new ArrayList<>();
    for (int i = 0; i < entries.length; i++) {
      sortables.add(sort.sortable(i, entries[i]));
    }
    sortables.sort(sort.comparator());
    return sortables.stream().map(ServerSideSort.Sortable::id).toList();
  }

  private static Entry entry(String... attributes) throws Exception {
    String[] ldif = new String[attributes.length + 1];
    ldif[0] = "dn: cn=x";
    System.arraycopy(attributes, 0, ldif, 1, attributes.length);
    return new Entry(ldif);
  }

  @Test
  void integersSortByValueAndAbsentValuesSortLast() throws Exception {
    Entry nine = entry("changeNumber: 9");
    Entry fortyTwo = entry("changeNumber: 42");
    Entry negative = entry("changeNumber: -3");
    Entry none = entry("cn: x");
    assertThat(order(new SortKey("changeNumber"), nine, fortyTwo, none, negative))
        .containsExactly(3L, 0L, 1L, 2L);
    assertThat(order(new SortKey("changeNumber", true), nine, fortyTwo, none, negative))
        .containsExactly(2L, 1L, 0L, 3L);
  }

  @Test
  void multiValuedAttributesSortByTheirSmallestValueOrLargestInReverse() throws Exception {
    Entry ab = entry("sn: b", "sn: A");
    Entry c = entry("sn: C");
    assertThat(order(new SortKey("sn", "caseIgnoreOrderingMatch", false), c, ab))
        .containsExactly(1L, 0L);
    assertThat(order(new SortKey("sn", "caseIgnoreOrderingMatch", true), ab, c))
        .containsExactly(1L, 0L);
  }

  @Test
  void unusableKeysAreReported() throws Exception {
    Schema schema = Schema.getDefaultStandardSchema();
    ServerSideSort unknown =
        ServerSideSort.from(new ServerSideSortRequestControl(new SortKey("nope")), schema);
    assertThat(unknown.usable()).isFalse();
    assertThat(((ServerSideSortResponseControl) unknown.responseControl()).getResultCode())
        .isEqualTo(ResultCode.NO_SUCH_ATTRIBUTE);
    ServerSideSort dn =
        ServerSideSort.from(new ServerSideSortRequestControl(new SortKey("member")), schema);
    assertThat(((ServerSideSortResponseControl) dn.responseControl()).getResultCode())
        .isEqualTo(ResultCode.INAPPROPRIATE_MATCHING);
    // sn has no ORDERING rule and the key names none (RFC 2891 section 1.2).
    ServerSideSort noRule =
        ServerSideSort.from(new ServerSideSortRequestControl(new SortKey("sn")), schema);
    assertThat(((ServerSideSortResponseControl) noRule.responseControl()).getResultCode())
        .isEqualTo(ResultCode.INAPPROPRIATE_MATCHING);
  }
}
