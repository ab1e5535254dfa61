package io.rockds.server.security;

import static io.rockds.server.security.SecurityFixture.BOB;
import static io.rockds.server.security.SecurityFixture.PEOPLE;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ConfigDns;
import io.rockds.config.ConfigStore;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The documented switch: ds-cfg-allow-anonymous-read opens anonymous read of all but passwords. */
class AnonymousReadIT {
  @TempDir Path dir;

  @Test
  void switch_opens_anonymous_read_and_search_but_not_passwords_nor_writes() throws Exception {
    try (TestServer server = TestServer.start(dir, SecurityFixture.entries())) {
      try (LDAPConnection anonymous = server.anonymousConnection()) {
        assertThat(anonymous.search(PEOPLE, SearchScope.SUB, "(uid=bob)").getEntryCount()).isZero();
      }
      Entry config =
          ConfigStore.load(server.instance().configFile()).get(ConfigDns.CONFIG).duplicate();
      config.setAttribute("ds-cfg-allow-anonymous-read", "true");
      SecurityFixture.reconfigure(server, config);
      try (LDAPConnection anonymous = server.anonymousConnection()) {
        SearchResultEntry bob =
            anonymous.searchForEntry(PEOPLE, SearchScope.SUB, "(uid=bob)", "*", "+");
        assertThat(bob).isNotNull();
        assertThat(bob.getAttributeValue("cn")).isEqualTo("bob");
        assertThat(bob.getAttributeValue("entryUUID")).isNotNull();
        assertThat(bob.hasAttribute("userPassword")).isFalse();
        assertThat(
                anonymous
                    .search(PEOPLE, SearchScope.SUB, "(&(uid=bob)(userPassword=*))")
                    .getEntryCount())
            .isZero();
        AccessControlIT.assertCode(
            () ->
                anonymous.modify(
                    BOB, new Modification(ModificationType.REPLACE, "description", "x")),
            ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      }
    }
  }
}
