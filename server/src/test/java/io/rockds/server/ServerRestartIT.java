package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The vertical slice through every layer, across a restart. */
class ServerRestartIT {
  @TempDir Path dir;

  @Test
  void entryAddedOverLdapIsFoundBySubtreeSearchBeforeAndAfterRestart() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries())) {
      try (LDAPConnection c = server.rootConnection()) {
        c.add(
            new Entry(
                "dn: uid=bjensen,ou=People,dc=example,dc=com",
                "objectClass: inetOrgPerson",
                "uid: bjensen",
                "cn: Barbara Jensen",
                "sn: Jensen",
                "userPassword: hifalutin"));
        SearchResult found = c.search("dc=example,dc=com", SearchScope.SUB, "(uid=bjensen)");
        assertThat(found.getEntryCount()).isEqualTo(1);
        assertThat(found.getSearchEntries().get(0).getAttributeValue("cn"))
            .isEqualTo("Barbara Jensen");
      }
      server.restart();
      try (LDAPConnection c = server.rootConnection()) {
        SearchResult found = c.search("dc=example,dc=com", SearchScope.SUB, "(uid=BJENSEN)");
        assertThat(found.getEntryCount()).isEqualTo(1);
        assertThat(found.getSearchEntries().get(0).getDN())
            .isEqualTo("uid=bjensen,ou=People,dc=example,dc=com");
        assertThat(found.getSearchEntries().get(0).getAttributeValue("userPassword"))
            .startsWith("{SSHA512}");
      }
      try (LDAPConnection user =
          new LDAPConnection(
              "127.0.0.1",
              server.ldapPort(),
              "uid=bjensen,ou=People,dc=example,dc=com",
              "hifalutin")) {
        assertThat(user.isConnected()).isTrue();
      }
      assertThatThrownBy(
              () ->
                  new LDAPConnection(
                      "127.0.0.1",
                      server.ldapPort(),
                      "uid=bjensen,ou=People,dc=example,dc=com",
                      "wrong"))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.INVALID_CREDENTIALS);
    }
  }

  @Test
  void anonymousClientsCannotWrite() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries());
        LDAPConnection anonymous = server.anonymousConnection()) {
      assertThatThrownBy(
              () ->
                  anonymous.add(
                      new Entry(
                          "dn: ou=x,dc=example,dc=com",
                          "objectClass: organizationalUnit",
                          "ou: x")))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  @Test
  void dnWithEmptyPasswordIsAnUnauthenticatedBindAndIsRefused() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries());
        LDAPConnection c = server.anonymousConnection()) {
      // The SDK refuses such a bind client-side unless told to send it.
      com.unboundid.ldap.sdk.LDAPConnectionOptions options = c.getConnectionOptions();
      options.setBindWithDNRequiresPassword(false);
      c.setConnectionOptions(options);
      assertThatThrownBy(
              () ->
                  c.bind(new com.unboundid.ldap.sdk.SimpleBindRequest("cn=Directory Manager", "")))
          .extracting(e -> ((LDAPException) e).getResultCode())
          .isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
    }
  }
}
