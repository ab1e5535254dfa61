package io.rockds.tools.ldif;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.BackendConfig;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.ServerConfig;
import io.rockds.server.Backends;
import io.rockds.server.Instance;
import io.rockds.storage.Backend;
import java.util.stream.Collectors;

/** Opens one backend of an instance from its configuration, as the offline tools do. */
final class OfflineBackend {
  private OfflineBackend() {}

  static ServerConfig config(Instance instance) throws ConfigException {
    return ServerConfig.read(ConfigStore.load(instance.configFile()));
  }

  /**
   * Opens the backend for exclusive use; fails with a message saying to stop the server when it
   * (or another tool) holds the database.
   */
  static Backend openExclusive(Instance instance, ServerConfig config, String backendId) throws LDAPException {
    return Backend.open(Backends.settings(find(config, backendId), instance), Schema.getDefaultStandardSchema());
  }

  /** Opens the backend read-only: works while the server runs. */
  static Backend openReadOnly(Instance instance, ServerConfig config, String backendId) throws LDAPException {
    return Backend.openReadOnly(Backends.settings(find(config, backendId), instance),
        Schema.getDefaultStandardSchema());
  }

  private static BackendConfig find(ServerConfig config, String backendId) throws LDAPException {
    return config.backends().stream().filter(b -> b.id().equalsIgnoreCase(backendId)).findFirst()
        .orElseThrow(() -> new LDAPException(ResultCode.NO_SUCH_OBJECT, "no backend " + backendId
            + " (expected one of: " + config.backends().stream().map(BackendConfig::id)
            .collect(Collectors.joining(", ")) + ")"));
  }
}
