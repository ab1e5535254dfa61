package io.rockds.server.config;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.BackendConfig;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.GlobalConfig;
import io.rockds.config.ServerConfig;
import io.rockds.server.Backends;
import io.rockds.server.logging.ServerLogs;
import io.rockds.server.security.RootUsers;
import io.rockds.server.security.SecurityServices;
import io.rockds.server.security.password.PasswordSchemes;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The configuration the running server uses, and what changes to it live: global limits (read by
 * every operation through {@link #global}), global ACIs and password policies with their schemes
 * ({@link SecurityServices#reload}), root DNs, log publishers and index settings (applied to
 * storage by {@link LiveIndexes}). Listener and storage options are read once at start.
 */
public final class LiveConfiguration {
  private final ConfigStore store;
  private final SecurityServices security;
  private final RootUsers rootUsers;
  private final ServerLogs logs;
  private final LiveIndexes indexes;
  private volatile ServerConfig current;

  /**
   * @param store the configuration entries, which {@link ConfigBackend} changes in place before it
   *     calls {@link #apply}
   */
  public LiveConfiguration(
      ServerConfig initial,
      ConfigStore store,
      SecurityServices security,
      RootUsers rootUsers,
      ServerLogs logs,
      Backends backends) {
    this.current = initial;
    this.store = store;
    this.security = security;
    this.rootUsers = rootUsers;
    this.logs = logs;
    this.indexes = new LiveIndexes(backends, logs);
    logs.apply(initial.logPublishers());
  }

  public ServerConfig current() {
    return current;
  }

  public GlobalConfig global() {
    return current.global();
  }

  /** The password schemes of the default password policy in force now. */
  public PasswordSchemes passwords() {
    return security.policies().defaultSchemes();
  }

  /**
   * The password schemes of the policy governing {@code entry}: the one its {@code
   * ds-pwp-password-policy-dn} (or {@code pwdPolicySubentry}) names, else the default policy's.
   */
  public PasswordSchemes passwordsFor(com.unboundid.ldap.sdk.Entry entry) {
    return security.policies().schemesFor(entry);
  }

  /** The iterated schemes new root passwords (in {@code cn=config}) are hashed with. */
  public PasswordSchemes rootPasswords() {
    return security.policies().rootSchemes();
  }

  /**
   * What a configuration must pass, beyond the model, before it is saved: everything it names
   * exists, and its global ACIs and password policies are usable.
   */
  public static void checkApplicable(ConfigStore candidate, ServerConfig config)
      throws LDAPException {
    try {
      SecurityServices.check(candidate, config.global());
    } catch (ConfigException e) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM, "Invalid configuration: " + e.getMessage());
    }
  }

  /** Applies an accepted, saved configuration (it passed {@link #checkApplicable}). */
  synchronized void apply(ServerConfig next) throws LDAPException {
    ServerConfig previous = current;
    try {
      security.reload(store, next.global());
    } catch (ConfigException e) {
      throw new LDAPException(
          ResultCode.OTHER, "The saved configuration could not be applied: " + e.getMessage());
    }
    current = next;
    rootUsers.replace(next.rootDns());
    logs.apply(next.logPublishers());
    Map<String, BackendConfig> before =
        previous.backends().stream()
            .collect(Collectors.toMap(BackendConfig::id, Function.identity()));
    for (BackendConfig backend : next.backends()) {
      BackendConfig old = before.get(backend.id());
      if (old != null) {
        indexes.apply(old, backend);
      }
    }
  }
}
