package io.rockds.config;

import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * How passwords are hashed, from the default password policy ({@code ds-cfg-default-password-policy}
 * of {@code cn=config}) and the enabled flags of {@code cn=Password Storage Schemes}.
 *
 * @param defaultScheme the {SCHEME} prefix new passwords get, e.g. SSHA512
 * @param disabledSchemes prefixes of schemes that neither hash nor verify
 */
public record PasswordStorageConfig(String defaultScheme, Set<String> disabledSchemes) {

  /** Null when the configuration has no password policy (an instance set up before they existed). */
  static PasswordStorageConfig from(ConfigStore store, Entry root) throws ConfigException {
    String policyDn = new PropertyReader(root, ConfigModel.GLOBAL).string("default-password-policy");
    Entry policy = store.get(ConfigDns.parse(policyDn));
    if (policy == null) {
      if (root.hasAttribute("ds-cfg-default-password-policy")) {
        throw new ConfigException("cn=config: ds-cfg-default-password-policy: \"" + policyDn
            + "\" (expected: the DN of a password policy)");
      }
      return null;
    }
    Set<String> disabled = new LinkedHashSet<>();
    for (Entry scheme : store.children(ConfigDns.PASSWORD_STORAGE_SCHEMES)) {
      PropertyReader r = new PropertyReader(scheme, ConfigModel.PASSWORD_STORAGE_SCHEME);
      if (!r.bool("enabled") && r.string("scheme-name") != null) {
        disabled.add(r.string("scheme-name"));
      }
    }
    String schemeDn = new PropertyReader(policy, ConfigModel.PASSWORD_POLICY)
        .strings("default-password-storage-scheme").get(0);
    Entry scheme = store.get(ConfigDns.parse(schemeDn));
    String name = scheme == null ? null : new PropertyReader(scheme, ConfigModel.PASSWORD_STORAGE_SCHEME)
        .string("scheme-name");
    if (name == null || disabled.contains(name)) {
      throw new ConfigException(policy.getDN() + ": ds-cfg-default-password-storage-scheme: \"" + schemeDn
          + "\" (expected: the DN of an enabled password storage scheme)");
    }
    return new PasswordStorageConfig(name, Set.copyOf(disabled));
  }
}
