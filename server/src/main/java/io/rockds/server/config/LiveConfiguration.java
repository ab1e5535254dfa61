package io.rockds.server.config;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.BackendConfig;
import io.rockds.config.GlobalConfig;
import io.rockds.config.PasswordStorageConfig;
import io.rockds.config.ServerConfig;
import io.rockds.server.Backends;
import io.rockds.server.logging.ServerLogs;
import io.rockds.server.security.RootUsers;
import io.rockds.server.security.password.PasswordSchemeSettings;
import io.rockds.server.security.password.PasswordSchemes;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The configuration the running server uses, and what changes to it live: global limits (read by
 * every operation through {@link #global}), the default password policy's schemes
 * ({@link #passwords}), root DNs, log publishers and index settings (applied to storage by
 * {@link LiveIndexes}). Listener and storage options are read once at start.
 */
public final class LiveConfiguration {
  private final RootUsers rootUsers;
  private final ServerLogs logs;
  private final LiveIndexes indexes;
  private volatile ServerConfig current;
  private volatile PasswordSchemes passwords;

  public LiveConfiguration(ServerConfig initial, PasswordSchemes passwords, RootUsers rootUsers, ServerLogs logs,
      Backends backends) {
    this.current = initial;
    this.passwords = passwords;
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
    return passwords;
  }

  /**
   * The password schemes a configuration asks for: its default policy's scheme, without the
   * disabled ones; the server's defaults when it has no password policy.
   */
  public static PasswordSchemes passwordSchemes(ServerConfig config) throws LDAPException {
    PasswordSchemeSettings defaults = PasswordSchemeSettings.defaults();
    PasswordStorageConfig storage = config.passwordStorage();
    if (storage == null) {
      return new PasswordSchemes(defaults);
    }
    try {
      return new PasswordSchemes(new PasswordSchemeSettings(storage.defaultScheme(), storage.disabledSchemes(),
          defaults.pbkdf2Iterations(), defaults.bcryptCost(), defaults.argon2Cost()));
    } catch (IllegalArgumentException e) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "Invalid configuration: password storage schemes: "
          + e.getMessage());
    }
  }

  /** What a configuration must pass, beyond the model, before it is saved: everything it names exists. */
  public static void checkApplicable(ServerConfig config) throws LDAPException {
    passwordSchemes(config);
  }

  /** Applies an accepted, saved configuration (it passed {@link #checkApplicable}). */
  synchronized void apply(ServerConfig next) throws LDAPException {
    ServerConfig previous = current;
    passwords = passwordSchemes(next);
    current = next;
    rootUsers.replace(next.rootDns());
    logs.apply(next.logPublishers());
    Map<String, BackendConfig> before = previous.backends().stream()
        .collect(Collectors.toMap(BackendConfig::id, Function.identity()));
    for (BackendConfig backend : next.backends()) {
      BackendConfig old = before.get(backend.id());
      if (old != null) {
        indexes.apply(old, backend);
      }
    }
  }
}
