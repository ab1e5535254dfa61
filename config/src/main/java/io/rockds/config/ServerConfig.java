package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.EntryValidator;
import io.rockds.config.model.ObjectDefinition;
import io.rockds.config.model.PropertyReader;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole typed configuration, read and validated from a {@link ConfigStore}. Every entry is
 * first checked against the model ({@link EntryValidator}); the first problem is reported with the
 * file, the line and the reason, e.g. {@code config.ldif: line 42: ds-cfg-index-entry-limit: "lots"
 * (expected: an integer of at least 0)}.
 *
 * <p>Password policies, storage schemes and global ACIs are read by the server's security code,
 * which checks them through {@link ConfigEditor.Check} before a change is saved.
 */
public record ServerConfig(
    GlobalConfig global,
    List<BackendConfig> backends,
    List<ConnectionHandlerConfig> connectionHandlers,
    List<RootDnConfig> rootDns,
    List<LogPublisherConfig> logPublishers,
    ReferentialIntegrityConfig referentialIntegrity,
    TlsStoresConfig tlsStores,
    List<String> saslMechanisms) {

  public static ServerConfig read(ConfigStore store) throws ConfigException {
    Entry root = store.get(ConfigDns.CONFIG);
    if (root == null) {
      throw new ConfigException(store.file() + ": the entry cn=config is missing");
    }
    for (Entry entry : store.all()) {
      List<EntryValidator.Violation> violations = EntryValidator.violations(entry);
      if (!violations.isEmpty()) {
        EntryValidator.Violation first = violations.get(0);
        throw new ConfigException(
            store.location(parsed(entry), first.attribute())
                + entry.getDN()
                + ": "
                + first.message());
      }
    }
    List<BackendConfig> backends = new ArrayList<>();
    for (Entry b : store.children(ConfigDns.BACKENDS)) {
      requireKind(store, b, ConfigModel.BACKEND);
      for (Entry index : store.children(ConfigDns.indexes(new ConfigEntry(b).name()))) {
        requireKind(store, index, ConfigModel.BACKEND_INDEX);
      }
      for (Entry index : store.children(ConfigDns.vlvIndexes(new ConfigEntry(b).name()))) {
        requireKind(store, index, ConfigModel.BACKEND_VLV_INDEX);
      }
      ConfigEntry backend = new ConfigEntry(b);
      backends.add(
          BackendConfig.from(
              backend,
              store.children(ConfigDns.indexes(backend.name())),
              store.children(ConfigDns.vlvIndexes(backend.name()))));
    }
    List<ConnectionHandlerConfig> handlers = new ArrayList<>();
    for (Entry h : store.children(ConfigDns.CONNECTION_HANDLERS)) {
      requireKind(store, h, ConfigModel.CONNECTION_HANDLER);
      handlers.add(ConnectionHandlerConfig.from(new ConfigEntry(h)));
    }
    List<RootDnConfig> rootDns = new ArrayList<>();
    Entry rootDnsEntry = store.get(ConfigDns.ROOT_DNS);
    List<String> defaultRootPrivileges =
        rootDnsEntry == null
            ? List.of()
            : new ConfigEntry(rootDnsEntry).strings("default-root-privilege-name");
    for (Entry r : store.children(ConfigDns.ROOT_DNS)) {
      rootDns.add(
          located(store, r, () -> RootDnConfig.from(new ConfigEntry(r), defaultRootPrivileges)));
    }
    List<LogPublisherConfig> publishers = new ArrayList<>();
    for (Entry p : store.children(ConfigDns.LOGGERS)) {
      requireKind(store, p, ConfigModel.LOG_PUBLISHER);
      List<Entry> criteria = store.children(ConfigDns.filteringCriteria(new ConfigEntry(p).name()));
      for (Entry c : criteria) {
        requireKind(store, c, ConfigModel.ACCESS_LOG_FILTERING_CRITERIA);
      }
      publishers.add(LogPublisherConfig.from(p, criteria));
    }
    for (Entry p : store.children(ConfigDns.PASSWORD_POLICIES)) {
      requireKind(store, p, ConfigModel.PASSWORD_POLICY);
    }
    for (Entry p : store.children(ConfigDns.PASSWORD_STORAGE_SCHEMES)) {
      requireKind(store, p, ConfigModel.PASSWORD_STORAGE_SCHEME);
    }
    for (Entry v : store.children(ConfigDns.PASSWORD_VALIDATORS)) {
      requireKind(store, v, ConfigModel.PASSWORD_VALIDATOR);
    }
    Entry integrity = store.get(ConfigDns.REFERENTIAL_INTEGRITY);
    if (integrity != null) {
      requireKind(store, integrity, ConfigModel.PLUGIN);
    }
    List<String> sasl = new ArrayList<>();
    for (Entry h : store.children(ConfigDns.SASL_MECHANISM_HANDLERS)) {
      requireKind(store, h, ConfigModel.SASL_MECHANISM_HANDLER);
      if (new PropertyReader(h, ConfigModel.SASL_MECHANISM_HANDLER).bool("enabled")) {
        sasl.add(new ConfigEntry(h).name());
      }
    }
    return new ServerConfig(
        GlobalConfig.from(new ConfigEntry(root)),
        List.copyOf(backends),
        List.copyOf(handlers),
        List.copyOf(rootDns),
        List.copyOf(publishers),
        located(store, integrity, () -> ReferentialIntegrityConfig.from(integrity)),
        TlsStoresConfig.from(
            store.get(ConfigDns.DEFAULT_KEY_MANAGER), store.get(ConfigDns.DEFAULT_TRUST_MANAGER)),
        List.copyOf(sasl));
  }

  /** Refuses an entry in a container of one kind of object that is not of that kind. */
  private static void requireKind(ConfigStore store, Entry entry, ObjectDefinition definition)
      throws ConfigException {
    if (!entry.hasObjectClass(definition.objectClass())) {
      throw new ConfigException(
          store.location(parsed(entry), "objectClass")
              + entry.getDN()
              + ": objectClass: expected "
              + definition.objectClass()
              + " for a "
              + definition.name()
              + " here");
    }
  }

  /** A record read that prefixes the entry's location to its error. */
  private interface Read<T> {
    T get() throws ConfigException;
  }

  private static <T> T located(ConfigStore store, Entry entry, Read<T> read)
      throws ConfigException {
    try {
      return read.get();
    } catch (ConfigException e) {
      if (entry == null) {
        throw e;
      }
      throw new ConfigException(store.location(parsed(entry), null) + e.getMessage(), e);
    }
  }

  private static DN parsed(Entry entry) {
    try {
      return entry.getParsedDN();
    } catch (LDAPException e) {
      throw new IllegalStateException("the store holds parsed DNs only", e);
    }
  }
}
