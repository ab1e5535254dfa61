package io.rockds.server.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Filter;
import org.junit.jupiter.api.Test;

/** A search of cn=changelog reads only the change numbers its filter can match. */
class ChangeNumberRangeTest {
  @Test
  void changeNumberComparisonsBoundTheRange() throws Exception {
    assertThat(range("(changeNumber>=5)")).isEqualTo(new ChangeNumberRange(5, Long.MAX_VALUE));
    assertThat(range("(changeNumber<=9)")).isEqualTo(new ChangeNumberRange(0, 9));
    assertThat(range("(changenumber=7)")).isEqualTo(new ChangeNumberRange(7, 7));
    assertThat(range("(2.16.840.1.113730.3.1.5>=3)"))
        .isEqualTo(new ChangeNumberRange(3, Long.MAX_VALUE));
    assertThat(range("(&(changeNumber>=5)(changeNumber<=9)(objectClass=*))"))
        .isEqualTo(new ChangeNumberRange(5, 9));
    assertThat(range("(|(changeNumber=2)(changeNumber=8))")).isEqualTo(new ChangeNumberRange(2, 8));
    assertThat(range("(&(changeNumber>=9)(changeNumber<=5))").isEmpty()).isTrue();
  }

  @Test
  void anythingElseLeavesTheRangeOpen() throws Exception {
    assertThat(range("(objectClass=*)")).isEqualTo(ChangeNumberRange.ALL);
    assertThat(range("(!(changeNumber>=5))")).isEqualTo(ChangeNumberRange.ALL);
    assertThat(range("(|(changeNumber=2)(targetDN=dc=example,dc=com))"))
        .isEqualTo(ChangeNumberRange.ALL);
    assertThat(range("(changeNumber>=many)")).isEqualTo(ChangeNumberRange.ALL);
    assertThat(range("(changeType=add)")).isEqualTo(ChangeNumberRange.ALL);
  }

  private static ChangeNumberRange range(String filter) throws Exception {
    return ChangeNumberRange.of(Filter.create(filter));
  }
}
