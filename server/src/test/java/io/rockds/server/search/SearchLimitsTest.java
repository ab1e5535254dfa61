package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.GlobalConfig;
import io.rockds.server.UserLimits;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SearchLimitsTest {
  private static final GlobalConfig GLOBAL =
      new GlobalConfig(
          1000,
          60,
          5000,
          false,
          0,
          io.rockds.config.RequestLimitsConfig.DEFAULTS,
          GlobalConfig.HttpEndpoint.NONE,
          0,
          io.rockds.config.PersistentSearchConfig.DEFAULTS);

  private static SearchRequestProtocolOp request(int sizeLimit, int timeLimit) {
    return new SearchRequestProtocolOp(
        "dc=example,dc=com",
        SearchScope.SUB,
        DereferencePolicy.NEVER,
        sizeLimit,
        timeLimit,
        false,
        Filter.createPresenceFilter("objectClass"),
        List.of());
  }

  @Test
  void theSmallerLimitWinsAndRootIsExempt() {
    assertThat(SearchLimits.of(request(0, 0), GLOBAL, false).sizeLimit()).isEqualTo(1000);
    assertThat(SearchLimits.of(request(5, 0), GLOBAL, false).sizeLimit()).isEqualTo(5);
    assertThat(SearchLimits.of(request(5000, 0), GLOBAL, false).sizeLimit()).isEqualTo(1000);
    assertThat(SearchLimits.of(request(0, 0), GLOBAL, true).sizeLimit()).isZero();
    assertThat(SearchLimits.of(request(7, 0), GLOBAL, true).sizeLimit()).isEqualTo(7);
    assertThat(SearchLimits.of(request(0, 0), GLOBAL, false).lookthroughLimit()).isEqualTo(5000);
    assertThat(SearchLimits.of(request(0, 0), GLOBAL, true).lookthroughLimit()).isZero();
  }

  @Test
  void limitsFailWithTheirResultCodes() throws LDAPException {
    SearchLimits limits = new SearchLimits(2, System.nanoTime() - 1, 10);
    limits.checkSize(1);
    limits.checkLookthrough(10);
    assertThatThrownBy(() -> limits.checkSize(2))
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.SIZE_LIMIT_EXCEEDED));
    assertThatThrownBy(() -> limits.checkLookthrough(11))
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.ADMIN_LIMIT_EXCEEDED));
    assertThatThrownBy(limits::checkTime)
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.TIME_LIMIT_EXCEEDED));
    new SearchLimits(0, Long.MAX_VALUE, 0).checkTime();
  }

  @Test
  void aUsersTimeLimitReplacesTheServersEitherWay() {
    UserLimits none = new UserLimits(null, 0, null, null);
    UserLimits oneSecond = new UserLimits(null, 1, null, null);
    long before = System.nanoTime();
    assertThat(SearchLimits.of(request(0, 0), GLOBAL, false, none).deadlineNanos())
        .isEqualTo(Long.MAX_VALUE);
    long deadline = SearchLimits.of(request(0, 0), GLOBAL, true, oneSecond).deadlineNanos();
    assertThat(deadline - before)
        .isBetween(0L, TimeUnit.SECONDS.toNanos(1) + (System.nanoTime() - before));
    assertThat(
            SearchLimits.of(request(0, 0), GLOBAL, false, UserLimits.NONE).deadlineNanos() - before)
        .isGreaterThan(TimeUnit.SECONDS.toNanos(59));
  }
}
