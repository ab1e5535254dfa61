package io.rockds.server.hardening;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
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
 * Deep DNs (issue 18, item 1): a base DN of 20,000 RDNs used to cost an anonymous client's request
 * about 12 s of server CPU (a matchedDN walk reading and copying every parent). DNs over {@code
 * max-dn-rdns} or {@code max-dn-length} are now refused at once with adminLimitExceeded naming the
 * property, and the matchedDN of a DN within the limits is still exact.
 */
class DeepDnIT {
  private static final String PEOPLE = "ou=People," + TestServer.BASE;

  @TempDir static Path dir;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(new Entry("dn: uid=deep," + PEOPLE, "objectClass: account", "uid: deep"));
    server = TestServer.start(dir, entries);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /**
   * A client that would wait long for an answer: the test fails on the result, not on a timeout.
   */
  private static LDAPConnection patientClient() throws LDAPException {
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setResponseTimeoutMillis(120_000);
    return new LDAPConnection(options, "127.0.0.1", server.ldapPort());
  }

  private static String deep(int rdns, String below) {
    return "cn=a,".repeat(rdns) + below;
  }

  @Test
  void anonymousSearchBelowTwentyThousandRdnsIsRefusedWithTheLimitItBroke() throws Exception {
    try (LDAPConnection anonymous = patientClient()) {
      SearchRequest search =
          new SearchRequest(deep(20_000, TestServer.BASE), SearchScope.BASE, "(objectClass=*)");
      search.setTimeLimitSeconds(5);
      LDAPException refused =
          catchThrowableOfType(LDAPException.class, () -> anonymous.search(search));
      assertThat(refused.getResultCode()).isEqualTo(ResultCode.ADMIN_LIMIT_EXCEEDED);
      assertThat(refused.getDiagnosticMessage()).contains("limit set by max-dn-length");
      // The connection goes on.
      assertThat(anonymous.getRootDSE()).isNotNull();
    }
  }

  @Test
  void everyOperationNamingADeepDnIsRefused() throws Exception {
    String tooDeep = deep(200, PEOPLE);
    try (LDAPConnection root = patientClient()) {
      root.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
      assertRefused(
          () -> root.add(new Entry("dn: " + tooDeep, "objectClass: device", "cn: a")),
          "max-dn-rdns");
      assertRefused(() -> root.delete(tooDeep), "max-dn-rdns");
      assertRefused(
          () ->
              root.modify(tooDeep, new Modification(ModificationType.REPLACE, "description", "x")),
          "max-dn-rdns");
      assertRefused(() -> root.compare(tooDeep, "cn", "a"), "max-dn-rdns");
      assertRefused(
          () ->
              root.modifyDN(new ModifyDNRequest("uid=deep," + PEOPLE, "uid=deep", false, tooDeep)),
          "max-dn-rdns");
      assertRefused(() -> root.bind(tooDeep, "secret"), "max-dn-rdns");
      LDAPException refused = catchThrowableOfType(LDAPException.class, () -> root.delete(tooDeep));
      assertThat(refused.getDiagnosticMessage()).contains("more than 128 RDNs in one DN");
    }
  }

  @Test
  void aLongDnIsRefusedByLength() throws Exception {
    try (LDAPConnection anonymous = patientClient()) {
      String longRdn = "cn=" + "x".repeat(9000) + "," + TestServer.BASE;
      assertRefused(
          () -> anonymous.search(longRdn, SearchScope.BASE, "(objectClass=*)"), "max-dn-length");
    }
  }

  @Test
  void theMatchedDnOfADnWithinTheLimitsIsTheDeepestExistingAncestor() throws Exception {
    try (LDAPConnection root = patientClient()) {
      root.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
      for (int depth : new int[] {1, 2, 3, 100, 120}) {
        LDAPException missing =
            catchThrowableOfType(
                LDAPException.class,
                () ->
                    root.search(
                        deep(depth, "uid=deep," + PEOPLE), SearchScope.BASE, "(objectClass=*)"));
        assertThat(missing.getResultCode()).isEqualTo(ResultCode.NO_SUCH_OBJECT);
        assertThat(missing.getMatchedDN()).isEqualTo("uid=deep," + PEOPLE);
      }
      LDAPException belowSuffix =
          catchThrowableOfType(LDAPException.class, () -> root.delete("cn=x," + TestServer.BASE));
      assertThat(belowSuffix.getMatchedDN()).isEqualTo(TestServer.BASE);
    }
  }

  @Test
  void theLimitsChangeOnline() throws Exception {
    try (LDAPConnection root = patientClient()) {
      root.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
      String deeper = deep(150, PEOPLE);
      assertRefused(() -> root.search(deeper, SearchScope.BASE, "(objectClass=*)"), "max-dn-rdns");
      root.modify(
          "cn=config", new Modification(ModificationType.REPLACE, "ds-cfg-max-dn-rdns", "200"));
      try {
        LDAPException missing =
            catchThrowableOfType(
                LDAPException.class,
                () -> root.search(deeper, SearchScope.BASE, "(objectClass=*)"));
        assertThat(missing.getResultCode()).isEqualTo(ResultCode.NO_SUCH_OBJECT);
        assertThat(missing.getMatchedDN()).isEqualTo(PEOPLE);
      } finally {
        root.modify(
            "cn=config", new Modification(ModificationType.REPLACE, "ds-cfg-max-dn-rdns", "128"));
      }
    }
  }

  private static void assertRefused(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String property) {
    LDAPException refused = catchThrowableOfType(LDAPException.class, call);
    assertThat(refused).as("refused naming " + property).isNotNull();
    assertThat(refused.getResultCode()).isEqualTo(ResultCode.ADMIN_LIMIT_EXCEEDED);
    assertThat(refused.getDiagnosticMessage()).contains(property);
  }
}
