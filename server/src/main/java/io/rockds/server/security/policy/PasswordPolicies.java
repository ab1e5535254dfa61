package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.ConfigDns;
import io.rockds.config.ConfigEntry;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.server.security.password.PasswordSchemeSettings;
import io.rockds.server.security.password.PasswordSchemes;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The password policies of {@code cn=Password Policies,cn=config} and which one governs an
 * entry: the one its {@code ds-pwp-password-policy-dn} (OpenDJ) or {@code pwdPolicySubentry}
 * (draft-behera) names, else {@code cn=Default Password Policy}.
 */
public final class PasswordPolicies {
  public static final DN DEFAULT_POLICY = ConfigDns.parse("cn=Default Password Policy,cn=Password Policies,cn=config");
  private static final String[] POLICY_ATTRIBUTES = {"ds-pwp-password-policy-dn", "pwdPolicySubentry"};
  private static final Logger LOG = LoggerFactory.getLogger(PasswordPolicies.class);

  private final Map<DN, PasswordPolicy> byDn;
  private final PasswordPolicy defaultPolicy;
  private final Map<String, PasswordSchemes> schemesByName = new HashMap<>();

  PasswordPolicies(Map<DN, PasswordPolicy> byDn, PasswordPolicy defaultPolicy, PasswordSchemeSettings settings) {
    this.byDn = Map.copyOf(byDn);
    this.defaultPolicy = defaultPolicy;
    for (PasswordPolicy p : byDn.values()) {
      schemesByName.computeIfAbsent(p.storageScheme(), s -> schemes(settings, s, p.dn()));
    }
    schemesByName.computeIfAbsent(defaultPolicy.storageScheme(), s -> schemes(settings, s, defaultPolicy.dn()));
  }

  /** Reads every policy; without a default policy entry, a built-in one that only hashes. */
  public static PasswordPolicies read(ConfigStore store, PasswordSchemeSettings settings) throws ConfigException {
    Map<DN, PasswordPolicy> byDn = new HashMap<>();
    for (Entry e : store.children(ConfigDns.PASSWORD_POLICIES)) {
      PasswordPolicy policy = PasswordPolicy.from(new ConfigEntry(e), settings.defaultScheme());
      byDn.put(policy.dn(), policy);
    }
    PasswordPolicy fallback = byDn.getOrDefault(DEFAULT_POLICY,
        PasswordPolicy.builtIn(DEFAULT_POLICY, settings.defaultScheme()));
    try {
      return new PasswordPolicies(byDn, fallback, settings);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage(), e);
    }
  }

  private static PasswordSchemes schemes(PasswordSchemeSettings settings, String scheme, DN policy) {
    try {
      return new PasswordSchemes(new PasswordSchemeSettings(scheme, settings.disabledSchemes(),
          settings.pbkdf2Iterations(), settings.bcryptCost(), settings.argon2Cost()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(policy + ": ds-cfg-default-password-storage-scheme: " + e.getMessage(), e);
    }
  }

  /** The schemes hashing with the default policy's storage scheme (clear-text values on add and modify). */
  public PasswordSchemes defaultSchemes() {
    return schemesFor(defaultPolicy);
  }

  PasswordSchemes schemesFor(PasswordPolicy policy) {
    return schemesByName.get(policy.storageScheme());
  }

  /** The policy governing {@code entry}. */
  public PasswordPolicy policyFor(Entry entry) {
    for (String attribute : POLICY_ATTRIBUTES) {
      String value = entry.getAttributeValue(attribute);
      if (value != null) {
        try {
          PasswordPolicy policy = byDn.get(new DN(value));
          if (policy != null) {
            return policy;
          }
        } catch (LDAPException e) {
          // reported below
        }
        LOG.warn("{}: {} names no password policy: \"{}\"; using the default policy", entry.getDN(), attribute, value);
      }
    }
    return defaultPolicy;
  }
}
