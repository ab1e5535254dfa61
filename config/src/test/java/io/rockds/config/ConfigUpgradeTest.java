package io.rockds.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A configuration written before the plugins, providers, SASL handlers and default root privileges
 * were objects loads as one written today, with the old settings carried over.
 */
class ConfigUpgradeTest {
  @TempDir Path dir;

  /** Today's initial configuration turned back into the layout of the previous release. */
  private ConfigStore previousRelease() throws Exception {
    List<Entry> old = new ArrayList<>();
    List<DN> later =
        InitialConfig.pluginsAndProviders().stream()
            .map(
                e -> {
                  try {
                    return e.getParsedDN();
                  } catch (Exception ex) {
                    throw new IllegalStateException(ex);
                  }
                })
            .toList();
    for (Entry e : InitialStores.saved(dir.resolve("new"), 0, -1).all()) {
      DN dn = e.getParsedDN();
      if (later.contains(dn)) {
        continue;
      }
      Entry copy = e.duplicate();
      if (dn.equals(ConfigDns.CONFIG)) {
        copy.addAttribute("ds-cfg-referential-integrity", "false");
      } else if (dn.equals(ConfigDns.ROOT_DNS)) {
        copy = new Entry(dn);
        copy.addAttribute("objectClass", "top", "ds-cfg-branch");
        copy.addAttribute("cn", "Root DNs");
      } else if (dn.isDescendantOf(ConfigDns.ROOT_DNS, false)) {
        List<String> privileges = new ArrayList<>(InitialConfig.ROOT_PRIVILEGES);
        privileges.remove("proxied-auth");
        copy.addAttribute("ds-privilege-name", privileges);
      }
      old.add(copy);
    }
    ConfigStore store = ConfigStore.create(dir.resolve("config.ldif"), old);
    store.save();
    return store;
  }

  @Test
  void anOlderConfigurationGainsTheNewObjectsAndKeepsItsSettings() throws Exception {
    ConfigStore loaded = ConfigStore.load(previousRelease().file());

    assertThat(loaded.get(ConfigDns.CONFIG).hasAttribute("ds-cfg-referential-integrity")).isFalse();
    ServerConfig config = ServerConfig.read(loaded);
    assertThat(config.referentialIntegrity().enabled()).isFalse();
    assertThat(config.referentialIntegrity().attributeTypes())
        .containsExactly("member", "uniqueMember");
    assertThat(config.saslMechanisms()).containsExactlyInAnyOrder("PLAIN", "EXTERNAL");
    assertThat(config.tlsStores().keyStore()).isEqualTo("config/keystore.p12");
    assertThat(config.tlsStores().trustStore()).isEqualTo("config/truststore.p12");
    // The root user keeps exactly the privileges it had (no proxied-auth: none is gained); they
    // now come from cn=Root DNs, so that set-root-dn-prop applies to it.
    List<String> had = new ArrayList<>(InitialConfig.ROOT_PRIVILEGES);
    had.remove("proxied-auth");
    Entry user = loaded.children(ConfigDns.ROOT_DNS).get(0);
    assertThat(user.hasAttribute("ds-privilege-name")).isFalse();
    assertThat(
            loaded.get(ConfigDns.ROOT_DNS).getAttributeValues("ds-cfg-default-root-privilege-name"))
        .containsExactlyInAnyOrderElementsOf(had);
    assertThat(config.rootDns().get(0).privileges()).containsExactlyInAnyOrderElementsOf(had);
  }
}
