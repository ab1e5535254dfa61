package io.rockds.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.ObjectDefinition;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The typed configuration read from a file: the model's defaults where a value is absent, and every
 * value written read back the same after a save and a load.
 */
class ServerConfigTest {
  @TempDir Path dir;

  private ConfigStore initialStore() throws Exception {
    return InitialStores.saved(dir, 1389, 1636);
  }

  private static String defaultOf(ObjectDefinition definition, String property) {
    return definition.property(null, property).orElseThrow().defaultValue();
  }

  @Test
  void setupParametersAreReadBackAsTheTypedConfiguration() throws Exception {
    ServerConfig config = ServerConfig.read(initialStore());
    BackendConfig userRoot = config.backends().get(0);
    assertThat(userRoot.id()).isEqualTo("userRoot");
    assertThat(userRoot.baseDns()).containsExactly(new DN("dc=example,dc=com"));
    assertThat(userRoot.dbDirectory()).isEqualTo("db/userRoot");
    assertThat(userRoot.indexes())
        .extracting(IndexConfig::attribute)
        .containsAll(InitialConfig.DEFAULT_INDEXES.stream().map(i -> i.get(0)).toList());
    assertThat(config.connectionHandlers())
        .extracting(ConnectionHandlerConfig::listenPort, ConnectionHandlerConfig::useSsl)
        .contains(
            org.assertj.core.groups.Tuple.tuple(1389, false),
            org.assertj.core.groups.Tuple.tuple(1636, true));
    assertThat(config.rootDns())
        .flatExtracting(RootDnConfig::bindDns)
        .contains(new DN("cn=Directory Manager"));
    assertThat(config.global().allowAnonymousRead()).isFalse();
  }

  @Test
  void anAbsentValueIsTheModelsDefault() throws Exception {
    ConfigStore store = initialStore();
    Entry root = store.get(ConfigDns.CONFIG).duplicate();
    root.removeAttribute("ds-cfg-size-limit");
    root.removeAttribute("ds-cfg-lookthrough-limit");
    store.put(root);
    Entry backend = store.get(ConfigDns.backend("userRoot")).duplicate();
    backend.removeAttribute("ds-cfg-index-entry-limit");
    store.put(backend);

    ServerConfig config = ServerConfig.read(store);
    assertThat(config.global().sizeLimit())
        .isEqualTo(Integer.parseInt(defaultOf(ConfigModel.GLOBAL, "size-limit")));
    assertThat(config.global().lookthroughLimit())
        .isEqualTo(Integer.parseInt(defaultOf(ConfigModel.GLOBAL, "lookthrough-limit")));
    assertThat(config.backends().get(0).indexEntryLimit())
        .isEqualTo(Integer.parseInt(defaultOf(ConfigModel.BACKEND, "index-entry-limit")));
    assertThat(config.backends().get(0).indexes())
        .allSatisfy(index -> assertThat(index.entryLimit()).isNull());
  }

  @Test
  void changedValuesSurviveASaveAndALoad() throws Exception {
    ConfigStore store = initialStore();
    Entry root = store.get(ConfigDns.CONFIG).duplicate();
    root.setAttribute("ds-cfg-size-limit", "250");
    root.setAttribute("ds-cfg-allow-anonymous-read", "yes");
    store.put(root);
    Entry index = store.get(ConfigDns.index("userRoot", "uid")).duplicate();
    index.setAttribute("ds-cfg-index-entry-limit", "77");
    store.put(index);
    Entry backend = store.get(ConfigDns.backend("userRoot")).duplicate();
    backend.setAttribute("ds-cfg-db-txn-no-sync", "true");
    store.put(backend);
    store.save();

    ServerConfig before = ServerConfig.read(store);
    ServerConfig after = ServerConfig.read(ConfigStore.load(store.file()));
    assertThat(after).isEqualTo(before);
    assertThat(after.global().sizeLimit()).isEqualTo(250);
    assertThat(after.global().allowAnonymousRead()).isTrue();
    assertThat(after.backends().get(0).syncWrites()).isFalse();
    assertThat(after.backends().get(0).indexes())
        .filteredOn(i -> i.attribute().equals("uid"))
        .singleElement()
        .extracting(IndexConfig::entryLimit)
        .isEqualTo(77);
  }
}
