package io.rockds.server.security.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.ConfigDns;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.InitialConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheme entries setup writes name schemes the server has; each can be the default policy's
 * scheme; a policy naming a missing or disabled scheme entry is refused.
 */
class PasswordSchemeEntriesTest {
  @TempDir Path dir;

  private ConfigStore setUpWith(String schemeEntry) throws Exception {
    InitialConfig.Parameters p =
        new InitialConfig.Parameters(
            new DN("dc=example,dc=com"),
            "127.0.0.1",
            0,
            -1,
            new DN("cn=Directory Manager"),
            "{SSHA512}aGFzaA==",
            false,
            -1,
            schemeEntry);
    return ConfigStore.create(dir.resolve("config.ldif"), InitialConfig.entries(p));
  }

  @Test
  void everySchemeEntryNamesAKnownScheme() throws Exception {
    for (List<String> scheme : InitialConfig.PASSWORD_STORAGE_SCHEMES) {
      if (scheme.get(1).equals("CLEAR")) {
        continue;
      }
      byte[] hash =
          PasswordPolicies.read(setUpWith(scheme.get(1)))
              .defaultSchemes()
              .encode("secret".getBytes(StandardCharsets.UTF_8));
      assertThat(new String(hash, StandardCharsets.UTF_8))
          .as(scheme.get(0))
          .startsWithIgnoringCase("{" + scheme.get(1));
    }
  }

  @Test
  void aMissingOrDisabledSchemeEntryIsRefused() throws Exception {
    ConfigStore store = setUpWith(null);
    DN policy = ConfigDns.passwordPolicy("Default Password Policy");
    store.put(withScheme(store.get(policy), "cn=Nope,cn=Password Storage Schemes,cn=config"));
    assertThatThrownBy(() -> PasswordPolicies.read(store))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("cn=Nope")
        .hasMessageContaining("enabled password storage scheme");
    store.put(withScheme(store.get(policy), "cn=Clear,cn=Password Storage Schemes,cn=config"));
    assertThatThrownBy(() -> PasswordPolicies.read(store)).hasMessageContaining("cn=Clear");
  }

  @Test
  void disablingASchemeEntryStopsItsVerification() throws Exception {
    ConfigStore store = setUpWith(null);
    byte[] ssha =
        PasswordPolicies.read(setUpWith("SSHA"))
            .defaultSchemes()
            .encode("secret".getBytes(StandardCharsets.UTF_8));
    PasswordPolicies policies = PasswordPolicies.read(store);
    assertThat(policies.defaultSchemes().verify("secret".getBytes(StandardCharsets.UTF_8), ssha))
        .isTrue();
    DN sshaEntry = ConfigDns.passwordStorageScheme(InitialConfig.schemeEntry("SSHA"));
    Entry disabled = store.get(sshaEntry).duplicate();
    disabled.setAttribute(new Attribute("ds-cfg-enabled", "false"));
    store.put(disabled);
    policies.reload(store);
    assertThat(policies.defaultSchemes().verify("secret".getBytes(StandardCharsets.UTF_8), ssha))
        .isFalse();
  }

  private static Entry withScheme(Entry policy, String schemeDn) {
    Entry e = policy.duplicate();
    e.setAttribute(new Attribute("ds-cfg-default-password-storage-scheme", schemeDn));
    return e;
  }
}
