package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.ConfigDns;
import io.rockds.config.ConfigEntry;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;
import io.rockds.server.security.password.PasswordSchemeSettings;
import io.rockds.server.security.password.PasswordSchemes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The password policies of {@code cn=Password Policies,cn=config} and the password storage schemes
 * they hash with: the one reader of that configuration. An entry is governed by the policy its
 * {@code ds-pwp-password-policy-dn} (OpenDJ) or {@code pwdPolicySubentry} (draft-behera) names,
 * else by the default policy ({@code ds-cfg-default-password-policy} of {@code cn=config}). A
 * change of {@code cn=config} takes effect through {@link #reload}.
 */
public final class PasswordPolicies {
  /** The attributes of an entry naming its policy ({@link #policyFor}). */
  static final List<String> POLICY_ATTRIBUTES =
      List.of("ds-pwp-password-policy-dn", "pwdPolicySubentry");

  private static final Logger LOG = LoggerFactory.getLogger(PasswordPolicies.class);

  /** The policies in force; replaced as a whole so a reader never sees half a change. */
  private record Snapshot(
      Map<DN, PasswordPolicy> byDn,
      PasswordPolicy defaultPolicy,
      Map<String, PasswordSchemes> schemesByName,
      PasswordSchemes rootSchemes) {}

  private volatile Snapshot current;

  private PasswordPolicies(Snapshot snapshot) {
    this.current = snapshot;
  }

  /**
   * Reads every policy and scheme entry. A policy must name an enabled scheme entry; an instance
   * without a default policy entry (set up before policies existed) gets a built-in one that only
   * hashes, with the server's default scheme.
   */
  public static PasswordPolicies read(ConfigStore store) throws ConfigException {
    return new PasswordPolicies(snapshot(store));
  }

  /** Takes a changed configuration into use: later binds and password changes see it. */
  public void reload(ConfigStore store) throws ConfigException {
    current = snapshot(store);
  }

  private static Snapshot snapshot(ConfigStore store) throws ConfigException {
    try {
      return read(store, PasswordSchemeSettings.defaults());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage(), e);
    }
  }

  private static Snapshot read(ConfigStore store, PasswordSchemeSettings defaults)
      throws ConfigException {
    Map<DN, String> schemeNames = new HashMap<>();
    Set<String> disabled = new LinkedHashSet<>(defaults.disabledSchemes());
    for (Entry scheme : store.children(ConfigDns.PASSWORD_STORAGE_SCHEMES)) {
      PropertyReader r = new PropertyReader(scheme, ConfigModel.PASSWORD_STORAGE_SCHEME);
      String name =
          r.string("scheme-name") == null ? null : r.string("scheme-name").toUpperCase(Locale.ROOT);
      if (name != null) {
        schemeNames.put(parsed(scheme), name);
        if (r.bool("enabled")) {
          disabled.remove(name);
        } else {
          disabled.add(name);
        }
      }
    }
    Map<DN, Optional<PasswordValidator>> validators = validators(store);
    Map<DN, PasswordPolicy> byDn = new HashMap<>();
    Map<String, PasswordSchemes> schemesByName = new HashMap<>();
    for (Entry e : store.children(ConfigDns.PASSWORD_POLICIES)) {
      String schemeDn =
          new PropertyReader(e, ConfigModel.PASSWORD_POLICY)
              .strings("default-password-storage-scheme")
              .get(0);
      String name = schemeNames.get(ConfigDns.parse(schemeDn));
      if (name == null || disabled.contains(name)) {
        throw new ConfigException(
            e.getDN()
                + ": ds-cfg-default-password-storage-scheme: \""
                + schemeDn
                + "\" (expected: the DN of an enabled password storage scheme)");
      }
      PasswordPolicy policy =
          PasswordPolicy.from(new ConfigEntry(e), name, validatorsOf(e, validators));
      byDn.put(policy.dn(), policy);
      schemesByName.computeIfAbsent(name, s -> schemes(defaults, s, disabled));
    }
    Entry root = store.get(ConfigDns.CONFIG);
    String configured =
        root == null
            ? null
            : new PropertyReader(root, ConfigModel.GLOBAL).string("default-password-policy");
    DN defaultDn = ConfigDns.parse(configured);
    PasswordPolicy defaultPolicy = byDn.get(defaultDn);
    if (defaultPolicy == null) {
      if (root != null && root.hasAttribute("ds-cfg-default-password-policy")) {
        throw new ConfigException(
            "cn=config: ds-cfg-default-password-policy: \""
                + configured
                + "\" (expected: the DN of a password policy)");
      }
      defaultPolicy = PasswordPolicy.builtIn(defaultDn, defaults.defaultScheme());
      schemesByName.computeIfAbsent(defaults.defaultScheme(), s -> schemes(defaults, s, disabled));
    }
    String rootScheme = PasswordSchemeSettings.rootScheme(defaultPolicy.storageScheme());
    // An operator who disabled the iterated scheme gets root passwords in the default policy's.
    PasswordSchemes rootSchemes =
        disabled.contains(rootScheme)
            ? schemesByName.get(defaultPolicy.storageScheme())
            : schemes(defaults, rootScheme, disabled);
    return new Snapshot(Map.copyOf(byDn), defaultPolicy, Map.copyOf(schemesByName), rootSchemes);
  }

  /** Every validator entry by DN; a disabled one is present but empty. */
  private static Map<DN, Optional<PasswordValidator>> validators(ConfigStore store)
      throws ConfigException {
    Path instance = store.file().toAbsolutePath().getParent().getParent();
    Map<DN, Optional<PasswordValidator>> validators = new HashMap<>();
    for (Entry v : store.children(ConfigDns.PASSWORD_VALIDATORS)) {
      boolean enabled = new PropertyReader(v, ConfigModel.PASSWORD_VALIDATOR).bool("enabled");
      validators.put(
          parsed(v), enabled ? Optional.of(PasswordValidator.from(v, instance)) : Optional.empty());
    }
    return validators;
  }

  /**
   * The enabled validators a policy names by DN or by name; naming none that exists is an error.
   */
  private static List<PasswordValidator> validatorsOf(
      Entry policy, Map<DN, Optional<PasswordValidator>> validators) throws ConfigException {
    List<PasswordValidator> named = new ArrayList<>();
    for (String value :
        new PropertyReader(policy, ConfigModel.PASSWORD_POLICY).strings("password-validator")) {
      DN dn;
      try {
        dn = value.contains("=") ? new DN(value) : ConfigDns.passwordValidator(value.trim());
      } catch (LDAPException e) {
        dn = null;
      }
      Optional<PasswordValidator> validator = dn == null ? null : validators.get(dn);
      if (validator == null) {
        throw new ConfigException(
            policy.getDN()
                + ": ds-cfg-password-validator: \""
                + value
                + "\" (expected: the name or DN of a password validator below "
                + ConfigDns.PASSWORD_VALIDATORS
                + ")");
      }
      validator.ifPresent(named::add);
    }
    return named;
  }

  private static PasswordSchemes schemes(
      PasswordSchemeSettings defaults, String scheme, Set<String> disabled) {
    try {
      return new PasswordSchemes(
          new PasswordSchemeSettings(
              scheme,
              disabled,
              defaults.pbkdf2Iterations(),
              defaults.bcryptCost(),
              defaults.argon2Cost()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "password storage scheme " + scheme + ": " + e.getMessage(), e);
    }
  }

  private static DN parsed(Entry entry) throws ConfigException {
    try {
      return entry.getParsedDN();
    } catch (LDAPException e) {
      throw new ConfigException(entry.getDN() + ": " + e.getExceptionMessage(), e);
    }
  }

  /**
   * The schemes hashing with the default policy's storage scheme (clear-text values on add and
   * modify).
   */
  public PasswordSchemes defaultSchemes() {
    Snapshot s = current;
    return s.schemesByName().get(s.defaultPolicy().storageScheme());
  }

  /**
   * The schemes root passwords set in {@code cn=Root DNs} are hashed with: the default policy's if
   * it is iterated, else PBKDF2-SHA256.
   */
  public PasswordSchemes rootSchemes() {
    return current.rootSchemes();
  }

  /** The schemes of {@code policy}; the default ones if a reload removed its scheme meanwhile. */
  PasswordSchemes schemesFor(PasswordPolicy policy) {
    Snapshot s = current;
    return s.schemesByName()
        .getOrDefault(
            policy.storageScheme(), s.schemesByName().get(s.defaultPolicy().storageScheme()));
  }

  /**
   * The schemes hashing clear-text passwords of {@code entry}: those of the policy governing it.
   */
  public PasswordSchemes schemesFor(Entry entry) {
    return schemesFor(policyFor(entry));
  }

  /** The policy of entries that name none, and of names that match no entry. */
  PasswordPolicy defaultPolicy() {
    return current.defaultPolicy();
  }

  /** The policy governing {@code entry}. */
  public PasswordPolicy policyFor(Entry entry) {
    Snapshot s = current;
    for (String attribute : POLICY_ATTRIBUTES) {
      String value = entry.getAttributeValue(attribute);
      if (value != null) {
        try {
          PasswordPolicy policy = s.byDn().get(new DN(value));
          if (policy != null) {
            return policy;
          }
        } catch (LDAPException e) {
          // reported below
        }
        LOG.warn(
            "{}: {} names no password policy: \"{}\"; using the default policy",
            entry.getDN(),
            attribute,
            value);
      }
    }
    return s.defaultPolicy();
  }
}
