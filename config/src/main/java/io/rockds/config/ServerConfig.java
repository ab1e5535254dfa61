package io.rockds.config;

import com.unboundid.ldap.sdk.Entry;
import java.util.ArrayList;
import java.util.List;

/** The whole typed configuration, read and validated from a {@link ConfigStore}. */
public record ServerConfig(GlobalConfig global, List<BackendConfig> backends,
    List<ConnectionHandlerConfig> connectionHandlers, List<RootDnConfig> rootDns) {

  public static ServerConfig read(ConfigStore store) throws ConfigException {
    Entry root = store.get(ConfigDns.CONFIG);
    if (root == null) {
      throw new ConfigException(store.file() + ": the entry cn=config is missing");
    }
    List<BackendConfig> backends = new ArrayList<>();
    for (Entry b : store.children(ConfigDns.BACKENDS)) {
      ConfigEntry backend = new ConfigEntry(b);
      String id = backend.requiredString("backend-id");
      backends.add(BackendConfig.from(backend, store.children(ConfigDns.indexes(id))));
    }
    List<ConnectionHandlerConfig> handlers = new ArrayList<>();
    for (Entry h : store.children(ConfigDns.CONNECTION_HANDLERS)) {
      handlers.add(ConnectionHandlerConfig.from(new ConfigEntry(h)));
    }
    List<RootDnConfig> rootDns = new ArrayList<>();
    for (Entry r : store.children(ConfigDns.ROOT_DNS)) {
      rootDns.add(RootDnConfig.from(new ConfigEntry(r)));
    }
    return new ServerConfig(GlobalConfig.from(new ConfigEntry(root)), List.copyOf(backends), List.copyOf(handlers),
        List.copyOf(rootDns));
  }
}
