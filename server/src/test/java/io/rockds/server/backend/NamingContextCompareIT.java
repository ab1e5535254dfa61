package io.rockds.server.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compare reaches every naming context over a real socket, as search does: cn=config, cn=monitor,
 * cn=tasks, cn=schema and the root DSE answer compareTrue / compareFalse under their own access
 * rules, instead of noSuchObject.
 */
class NamingContextCompareIT {
  private static final String LOGGERS = "cn=Loggers,cn=config";

  @TempDir Path dir;

  @Test
  void rootComparesOnConfigMonitorAndTasksEntries() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries());
        LDAPConnection root = server.rootConnection()) {
      assertThat(root.compare(LOGGERS, "cn", "Loggers").compareMatched()).isTrue();
      assertThat(root.compare(LOGGERS, "cn", "Backends").compareMatched()).isFalse();
      assertThat(root.compare("cn=config", "objectClass", "top").compareMatched()).isTrue();

      assertThat(root.compare("cn=monitor", "vendorName", "RockDS").compareMatched()).isTrue();
      assertThat(root.compare("cn=Operations,cn=monitor", "cn", "Operations").compareMatched())
          .isTrue();
      assertThat(root.compare("cn=monitor", "vendorName", "OpenDJ").compareMatched()).isFalse();

      assertThat(
              root.compare("cn=Scheduled Tasks,cn=tasks", "cn", "Scheduled Tasks").compareMatched())
          .isTrue();

      assertThat(root.compare(TestServer.BASE, "dc", "example").compareMatched()).isTrue();
    }
  }

  @Test
  void anonymousComparesOnTheRootDseAndSubschemaButNotOnPrivilegedContexts() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries());
        LDAPConnection anonymous = server.anonymousConnection()) {
      assertThat(anonymous.compare("", "vendorName", "RockDS").compareMatched()).isTrue();
      assertThat(anonymous.compare("", "vendorName", "Another Vendor").compareMatched()).isFalse();
      // RFC 4512 gives supportedLDAPVersion no EQUALITY rule: compare is inappropriateMatching (as
      // slapd).
      assertThatThrownBy(() -> anonymous.compare("", "supportedLDAPVersion", "3"))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INAPPROPRIATE_MATCHING));
      assertThat(anonymous.compare("cn=schema", "cn", "schema").compareMatched()).isTrue();

      for (String dn : new String[] {LOGGERS, "cn=monitor", "cn=tasks"}) {
        assertThatThrownBy(() -> anonymous.compare(dn, "cn", "x"))
            .isInstanceOfSatisfying(
                LDAPException.class,
                e ->
                    assertThat(e.getResultCode()).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
      }
    }
  }

  @Test
  void missingEntriesAndAttributesOfConfigurationAnswerAsOnUserEntries() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries());
        LDAPConnection root = server.rootConnection()) {
      assertThatThrownBy(() -> root.compare("cn=Nothing,cn=config", "cn", "Nothing"))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.NO_SUCH_OBJECT));
      assertThatThrownBy(() -> root.compare(LOGGERS, "description", "x"))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.NO_SUCH_ATTRIBUTE));
      // Search filters a configuration entry once: a filter that matches still returns it.
      assertThat(root.search(LOGGERS, SearchScope.BASE, "(cn=Loggers)").getEntryCount())
          .isEqualTo(1);
      assertThat(root.search(LOGGERS, SearchScope.BASE, "(cn=Backends)").getEntryCount()).isZero();
    }
  }
}
