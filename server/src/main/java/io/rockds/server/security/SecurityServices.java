package io.rockds.server.security;

import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.GlobalConfig;
import io.rockds.server.Backends;
import io.rockds.server.group.Groups;
import io.rockds.server.security.aci.AciCache;
import io.rockds.server.security.aci.AciEvaluator;
import io.rockds.server.security.aci.HostNames;
import io.rockds.server.security.policy.PasswordPolicies;
import io.rockds.server.security.policy.PasswordPolicyService;
import io.rockds.server.security.policy.PolicyWrites;
import io.rockds.server.security.policy.ResetRestrictions;
import java.time.Clock;

/**
 * The security services the composition root wires into the server context, and what of them the
 * configuration changes live: the global ACIs (with the anonymous read switch) and the password
 * policies with their storage schemes.
 */
public final class SecurityServices {
  private final AccessControl access;
  private final PasswordPolicyService passwordPolicy;
  private final PasswordPolicies policies;
  private final AciCache acis;

  private SecurityServices(
      AccessControl access,
      PasswordPolicyService passwordPolicy,
      PasswordPolicies policies,
      AciCache acis) {
    this.access = access;
    this.passwordPolicy = passwordPolicy;
    this.policies = policies;
    this.acis = acis;
  }

  /**
   * Builds access control over open backends, with the policies read from the same configuration;
   * {@code writes} takes the password policy's writes, {@code clock} dates lockouts, failures and
   * password ages.
   */
  public static SecurityServices open(
      ConfigStore config,
      GlobalConfig global,
      PasswordPolicies policies,
      RootUsers rootUsers,
      Backends backends,
      Schema schema,
      Groups groups,
      PolicyWrites writes,
      Clock clock)
      throws ConfigException {
    EntryLookup entries = new EntryLookup(backends, schema, groups);
    ResetRestrictions restrictions = new ResetRestrictions();
    AciCache acis = new AciCache(GlobalAcis.read(config, global), new BackendAcis(entries));
    AccessControl access =
        new AccessControl(
            acis,
            new AciEvaluator(schema, entries, new HostNames(), Clock.systemDefaultZone()),
            entries,
            restrictions);
    PasswordPolicyService passwordPolicy =
        new PasswordPolicyService(
            policies, entries, rootUsers, restrictions, access, writes, clock);
    return new SecurityServices(access, passwordPolicy, policies, acis);
  }

  /** Refuses a configuration whose global ACIs or password policies the server could not use. */
  public static void check(ConfigStore candidate, GlobalConfig global) throws ConfigException {
    GlobalAcis.read(candidate, global);
    PasswordPolicies.read(candidate);
  }

  /** Takes a changed, checked configuration into use: the next operation sees it. */
  public void reload(ConfigStore config, GlobalConfig global) throws ConfigException {
    acis.replaceGlobal(GlobalAcis.read(config, global));
    policies.reload(config);
  }

  public AccessControl access() {
    return access;
  }

  public PasswordPolicyService passwordPolicy() {
    return passwordPolicy;
  }

  /** The password policies in force, with the schemes clear-text passwords are hashed with. */
  public PasswordPolicies policies() {
    return policies;
  }
}
