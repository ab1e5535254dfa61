package io.rockds.server.hardening;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The time limit holds inside filter evaluation (issue 18, item 1). One entry with 20,000 values
 * and a filter of 1,000 long substring assertions, all within the request limits, cost an anonymous
 * client about 1,000 × 20,000 value tests for a single candidate; the time limit was only checked
 * between entries, so a one-second limit waited for all of them and then answered success with no
 * entry. Now evaluation stops at the deadline and the search gets timeLimitExceeded (3).
 */
class ExpensiveFilterIT {
  private static final String DEVICE = "cn=many-values,ou=People," + TestServer.BASE;
  private static final int VALUES = 20_000;
  private static final int COMPONENTS = 1_000;

  @TempDir static Path dir;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    Entry device = new Entry(DEVICE);
    device.addAttribute("objectClass", "device");
    device.addAttribute("cn", "many-values");
    String[] descriptions = new String[VALUES];
    for (int i = 0; i < VALUES; i++) {
      descriptions[i] = "abcdefghijklmnopqrstuvwxyz " + i;
    }
    device.addAttribute("description", descriptions);
    entries.add(device);
    server = TestServer.start(dir, entries);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** Every assertion walks most of each value and then fails on its last part. */
  private static String expensiveFilter() {
    StringBuilder filter = new StringBuilder("(&(objectClass=device)(|");
    String parts = "*a*b*c*d*e*f*g*h*i*j*k*l*m*n*o*p*q*r*s*t*u*v*w*x*y*z";
    for (int i = 0; i < COMPONENTS; i++) {
      filter.append("(description=").append(parts).append("*absent").append(i).append("*)");
    }
    return filter.append("))").toString();
  }

  @Test
  void anonymousFilterEvaluationStopsAtTheTimeLimit() throws Exception {
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    // Long enough for the unbounded evaluation to finish: the test fails on its result, not here.
    options.setResponseTimeoutMillis(600_000);
    try (LDAPConnection anonymous = new LDAPConnection(options, "127.0.0.1", server.ldapPort())) {
      SearchRequest search = new SearchRequest(TestServer.BASE, SearchScope.SUB, expensiveFilter());
      search.setTimeLimitSeconds(1);
      LDAPException stopped =
          catchThrowableOfType(LDAPException.class, () -> anonymous.search(search));
      assertThat(stopped).isNotNull();
      assertThat(stopped.getResultCode()).isEqualTo(ResultCode.TIME_LIMIT_EXCEEDED);
      // The connection goes on: a cheap filter over the same entry is answered.
      SearchResult cheap =
          anonymous.search(TestServer.BASE, SearchScope.SUB, "(&(objectClass=device)(cn=many*))");
      assertThat(cheap.getResultCode()).isEqualTo(ResultCode.SUCCESS);
    }
  }

  @Test
  void theSameFilterWithoutATimeLimitStillAnswersCorrectly() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      // A deadline that never passes must not change the answer: one matching component among the
      // expensive ones finds the entry.
      String filter = expensiveFilter().replace("(|", "(|(description=*xyz 19999)");
      SearchRequest search = new SearchRequest(TestServer.BASE, SearchScope.SUB, filter, "1.1");
      SearchResult found = root.search(search);
      assertThat(found.getSearchEntries()).extracting(Entry::getDN).containsExactly(DEVICE);
    }
  }
}
