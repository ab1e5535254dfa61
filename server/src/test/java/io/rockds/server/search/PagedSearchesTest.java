package io.rockds.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PagedSearchesTest {
  private final PagedSearches searches = new PagedSearches();

  @Test
  void aCookieResumesItsSearchOnce() throws Exception {
    ASN1OctetString cookie = searches.keep("search-a", new PagedSearches.AtId(42));
    assertThat(cookie.getValueLength()).isEqualTo(16);
    assertThat(searches.take(cookie, "search-a")).isEqualTo(new PagedSearches.AtId(42));
    assertThat(code(() -> searches.take(cookie, "search-a"))).isEqualTo(ResultCode.PROTOCOL_ERROR);
  }

  @Test
  void otherParametersAreUnwillingAndUnknownCookiesAProtocolError() {
    ASN1OctetString cookie = searches.keep("search-a", new PagedSearches.AtId(1));
    assertThat(code(() -> searches.take(cookie, "search-b")))
        .isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
    assertThat(code(() -> searches.take(new ASN1OctetString("forged"), "search-a")))
        .isEqualTo(ResultCode.PROTOCOL_ERROR);
  }

  @Test
  void theLeastRecentlyUsedSearchGoesPastTheCap() {
    List<ASN1OctetString> cookies = new ArrayList<>();
    for (int i = 0; i <= PagedSearches.MAX_OPEN; i++) {
      cookies.add(searches.keep("s" + i, new PagedSearches.AtId(i)));
    }
    assertThat(searches.openCount()).isEqualTo(PagedSearches.MAX_OPEN);
    assertThat(code(() -> searches.take(cookies.get(0), "s0")))
        .isEqualTo(ResultCode.PROTOCOL_ERROR);
    assertThat(code(() -> searches.take(cookies.get(1), "s1"))).isNull();
  }

  @Test
  void idleSearchesExpire() {
    ASN1OctetString cookie = searches.keep("s", new PagedSearches.AtId(1));
    searches.expire(System.nanoTime() + PagedSearches.IDLE_EXPIRY_NANOS + 1);
    assertThat(code(() -> searches.take(cookie, "s"))).isEqualTo(ResultCode.PROTOCOL_ERROR);
  }

  @Test
  void releaseDropsASearch() {
    ASN1OctetString cookie = searches.keep("s", new PagedSearches.AtId(1));
    searches.release(cookie);
    assertThat(searches.openCount()).isZero();
  }

  private interface Call {
    void run() throws LDAPException;
  }

  private static ResultCode code(Call call) {
    try {
      call.run();
      return null;
    } catch (LDAPException e) {
      return e.getResultCode();
    }
  }
}
