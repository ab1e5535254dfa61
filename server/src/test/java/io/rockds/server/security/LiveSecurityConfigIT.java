package io.rockds.server.security;

import static io.rockds.server.security.AccessControlIT.assertCode;
import static io.rockds.server.security.SecurityFixture.ALICE;
import static io.rockds.server.security.SecurityFixture.ALICE_PASSWORD;
import static io.rockds.server.security.SecurityFixture.BOB;
import static io.rockds.server.security.SecurityFixture.BOB_PASSWORD;
import static io.rockds.server.security.SecurityFixture.CAROL;
import static io.rockds.server.security.SecurityFixture.bind;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ConfigDns;
import io.rockds.config.ConfigStore;
import io.rockds.config.InitialConfig;
import io.rockds.server.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Global ACIs, the anonymous read switch and password policies changed over LDAP in cn=config (what
 * dsconfig does online) take effect without a restart; a change the server could not use is refused
 * and leaves the file untouched.
 */
class LiveSecurityConfigIT {
  private static final String GLOBAL_ACI = "ds-cfg-global-aci";
  private static final String DESCRIPTIONS_ACI =
      "(targetattr=\"description\")(version 3.0;"
          + " acl \"Authenticated users write descriptions\"; allow (write) userdn=\"ldap:///all\";)";
  private static final String DEFAULT_POLICY =
      ConfigDns.passwordPolicy("Default Password Policy").toString();

  @TempDir static Path dir;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(dir, SecurityFixture.entries());
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void a_global_aci_added_online_grants_at_once_and_its_removal_revokes() throws Exception {
    Modification describe = new Modification(ModificationType.REPLACE, "description", "live");
    String handler = InitialConfig.ACCESS_CONTROL_HANDLER.toString();
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection bob = bind(server, BOB, BOB_PASSWORD)) {
      assertCode(() -> bob.modify(CAROL, describe), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      root.modify(handler, new Modification(ModificationType.ADD, GLOBAL_ACI, DESCRIPTIONS_ACI));
      bob.modify(CAROL, describe);
      root.modify(handler, new Modification(ModificationType.DELETE, GLOBAL_ACI, DESCRIPTIONS_ACI));
      assertCode(() -> bob.modify(CAROL, describe), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  @Test
  void an_invalid_global_aci_is_refused_and_not_saved() throws Exception {
    String broken =
        "(targetattr=\"*\")(version 3.0; acl \"broken\"; allow (fly) userdn=\"ldap:///all\";)";
    try (LDAPConnection root = server.rootConnection()) {
      assertCode(
          () ->
              root.modify(
                  InitialConfig.ACCESS_CONTROL_HANDLER.toString(),
                  new Modification(ModificationType.ADD, GLOBAL_ACI, broken)),
          ResultCode.UNWILLING_TO_PERFORM);
    }
    ConfigStore saved = ConfigStore.load(server.instance().configFile());
    assertThat(saved.get(InitialConfig.ACCESS_CONTROL_HANDLER).getAttributeValues(GLOBAL_ACI))
        .doesNotContain(broken);
  }

  @Test
  void the_anonymous_read_switch_applies_online() throws Exception {
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection anonymous = server.anonymousConnection()) {
      assertThat(anonymous.search(ALICE, SearchScope.BASE, "(objectClass=*)").getEntryCount())
          .isZero();
      root.modify(
          "cn=config",
          new Modification(ModificationType.REPLACE, "ds-cfg-allow-anonymous-read", "true"));
      try {
        assertThat(anonymous.search(ALICE, SearchScope.BASE, "(objectClass=*)").getSearchEntries())
            .singleElement()
            .satisfies(e -> assertThat(e.hasAttribute("userPassword")).isFalse());
      } finally {
        root.modify(
            "cn=config",
            new Modification(ModificationType.REPLACE, "ds-cfg-allow-anonymous-read", "false"));
      }
      assertThat(anonymous.search(ALICE, SearchScope.BASE, "(objectClass=*)").getEntryCount())
          .isZero();
    }
  }

  @Test
  void a_minimum_length_set_online_is_enforced_at_once() throws Exception {
    Modification shortPassword =
        new Modification(ModificationType.REPLACE, "userPassword", "short-pw-1");
    try (LDAPConnection root = server.rootConnection();
        LDAPConnection alice = bind(server, ALICE, ALICE_PASSWORD)) {
      alice.modify(ALICE, shortPassword);
      root.modify(
          DEFAULT_POLICY,
          new Modification(ModificationType.REPLACE, "ds-cfg-min-password-length", "16"));
      try {
        assertCode(
            () ->
                alice.modify(
                    ALICE,
                    new Modification(ModificationType.REPLACE, "userPassword", "short-pw-2")),
            ResultCode.CONSTRAINT_VIOLATION);
        alice.modify(
            ALICE,
            new Modification(
                ModificationType.REPLACE, "userPassword", ALICE_PASSWORD + "-long-enough"));
      } finally {
        root.modify(
            DEFAULT_POLICY,
            new Modification(ModificationType.REPLACE, "ds-cfg-min-password-length", "0"));
        root.modify(
            ALICE, new Modification(ModificationType.REPLACE, "userPassword", ALICE_PASSWORD));
      }
    }
  }

  @Test
  void a_storage_scheme_changed_online_hashes_new_passwords() throws Exception {
    String pbkdf2 =
        ConfigDns.passwordStorageScheme(InitialConfig.schemeEntry("PBKDF2-SHA256")).toString();
    String ssha512 =
        ConfigDns.passwordStorageScheme(InitialConfig.schemeEntry("SSHA512")).toString();
    try (LDAPConnection root = server.rootConnection()) {
      root.modify(
          DEFAULT_POLICY,
          new Modification(
              ModificationType.REPLACE, "ds-cfg-default-password-storage-scheme", pbkdf2));
      try {
        root.modify(BOB, new Modification(ModificationType.REPLACE, "userPassword", BOB_PASSWORD));
        assertThat(root.getEntry(BOB, "userPassword").getAttributeValue("userPassword"))
            .startsWith("{PBKDF2-SHA256}");
        bind(server, BOB, BOB_PASSWORD).close();
      } finally {
        root.modify(
            DEFAULT_POLICY,
            new Modification(
                ModificationType.REPLACE, "ds-cfg-default-password-storage-scheme", ssha512));
      }
    }
  }
}
