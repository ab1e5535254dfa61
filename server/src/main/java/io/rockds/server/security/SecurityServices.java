package io.rockds.server.security;

import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.GlobalConfig;
import io.rockds.server.Backends;
import io.rockds.server.security.aci.AciCache;
import io.rockds.server.security.aci.AciEvaluator;
import io.rockds.server.security.password.PasswordSchemeSettings;
import io.rockds.server.security.password.PasswordSchemes;
import io.rockds.server.security.policy.PasswordPolicies;
import io.rockds.server.security.policy.PasswordPolicyService;
import io.rockds.server.security.policy.ResetRestrictions;
import java.time.Clock;

/**
 * The security services the composition root wires into the server context.
 *
 * @param passwords hashes clear-text passwords with the default password policy's scheme
 */
public record SecurityServices(AccessControl access, PasswordPolicyService passwordPolicy, PasswordSchemes passwords) {

  /** Builds access control and password policy from the configuration, over open backends. */
  public static SecurityServices open(ConfigStore config, GlobalConfig global, Backends backends, Schema schema)
      throws ConfigException {
    PasswordPolicies policies = PasswordPolicies.read(config, PasswordSchemeSettings.defaults());
    EntryLookup entries = new EntryLookup(backends, schema);
    ResetRestrictions restrictions = new ResetRestrictions();
    AciCache acis = new AciCache(GlobalAcis.read(config, global), new BackendAcis(entries));
    AccessControl access = new AccessControl(acis, new AciEvaluator(schema, entries), entries, restrictions);
    PasswordPolicyService passwordPolicy =
        new PasswordPolicyService(policies, entries, restrictions, access, Clock.systemUTC());
    return new SecurityServices(access, passwordPolicy, policies.defaultSchemes());
  }
}
