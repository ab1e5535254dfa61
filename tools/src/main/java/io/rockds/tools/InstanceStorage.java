package io.rockds.tools;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.BackendConfig;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.ServerConfig;
import io.rockds.layout.Instance;
import io.rockds.server.Backends;
import io.rockds.server.schema.SchemaLoader;
import io.rockds.storage.Backend;
import io.rockds.storage.BackendSettings;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.MemoryBudget;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The backends of an instance as the offline tools open them: from the instance's {@code
 * config.ldif}, through the same config-to-storage mapping the server uses ({@link
 * Backends#settings}).
 *
 * <p>Inspecting tools (backendstat, verify-index) open a {@linkplain Backend#openReadOnly read-only
 * view}, which needs no lock: on a stopped server it is the database; on a running one it is the
 * consistent state at the moment of opening. Rebuilding opens the database exclusively, which fails
 * with a clear message while a server holds it.
 */
public final class InstanceStorage {
  private final Instance instance;
  private final ServerConfig config;

  /**
   * The server's schema (standard plus the instance's config/schema files): index keys must be
   * normalized as the server does.
   */
  private final Schema schema;

  private InstanceStorage(Instance instance, ServerConfig config, Schema schema) {
    this.instance = instance;
    this.config = config;
    this.schema = schema;
  }

  public static InstanceStorage of(Instance instance) throws ConfigException {
    if (!Files.exists(instance.configFile())) {
      throw new ConfigException(
          "no instance at " + instance.root() + " (" + instance.configFile() + " is missing)");
    }
    return new InstanceStorage(
        instance,
        ServerConfig.read(ConfigStore.load(instance.configFile())),
        SchemaLoader.load(instance.schemaDirectory()));
  }

  public Instance instance() {
    return instance;
  }

  public ServerConfig config() {
    return config;
  }

  /** The server's schema, as it would check and index entries. */
  public Schema schema() {
    return schema;
  }

  /** One line saying which view a read-only open gives, for the tools to print on stderr. */
  public String describeReadOnlyView() {
    return RunningServer.of(instance)
        .map(
            server ->
                server.describe()
                    + ": reading a consistent read-only snapshot of its database taken at "
                    + Instant.now())
        .orElse("the server is stopped: reading its database offline (read-only)");
  }

  /** The backend configurations, all of them when {@code backendId} is null. */
  public List<BackendConfig> backends(String backendId) throws ConfigException {
    if (backendId == null) {
      return config.backends();
    }
    return List.of(backend(backendId));
  }

  public BackendConfig backend(String backendId) throws ConfigException {
    for (BackendConfig b : config.backends()) {
      if (b.id().equalsIgnoreCase(backendId)) {
        return b;
      }
    }
    List<String> ids = new ArrayList<>();
    config.backends().forEach(b -> ids.add(b.id()));
    throw new ConfigException(
        "-n " + backendId + ": no such backend (expected one of: " + String.join(", ", ids) + ")");
  }

  /** The backend holding {@code baseDn} as one of its base DNs. */
  public BackendConfig backendHolding(DN baseDn) throws ConfigException {
    for (BackendConfig b : config.backends()) {
      if (b.baseDns().contains(baseDn)) {
        return b;
      }
    }
    throw new ConfigException("-b " + baseDn + ": no backend has this base DN");
  }

  /** Opens the backend without a lock and without writing (see the class comment). */
  public Backend openReadOnly(BackendConfig backend) throws LDAPException {
    return withVlvIndexes(Backend.openReadOnly(settings(backend), schema), backend);
  }

  /**
   * Opens the backend exclusively for writing; fails while a server or another tool has it open.
   */
  public Backend openExclusive(BackendConfig backend) throws LDAPException {
    return withVlvIndexes(Backend.open(settings(backend), schema), backend);
  }

  private static Backend withVlvIndexes(Backend opened, BackendConfig config) throws LDAPException {
    try {
      Backends.openVlvIndexes(opened, config);
      return opened;
    } catch (LDAPException | RuntimeException e) {
      opened.close();
      throw e;
    }
  }

  /**
   * The backend's settings with the caches of a tool: the server's budget, as if it were the only
   * backend.
   */
  private BackendSettings settings(BackendConfig backend) {
    return Backends.settings(
        backend, instance, MemoryBudget.ofThisProcess(config.global().memoryBudgetBytes()), 1);
  }

  /**
   * The containers of {@code backend} whose base DN is {@code baseDn}, or all of them when null.
   */
  public static List<EntryContainer> containers(Backend backend, DN baseDn) throws ConfigException {
    if (baseDn == null) {
      return backend.containers();
    }
    for (EntryContainer c : backend.containers()) {
      if (c.baseDn().equals(baseDn)) {
        return List.of(c);
      }
    }
    throw new ConfigException(
        "-b "
            + baseDn
            + ": not a base DN of backend "
            + backend.id()
            + " (or its database has no data for it yet)");
  }
}
