package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;

/** The fixed DNs of the configuration tree, as OpenDJ lays it out. */
public final class ConfigDns {
  public static final DN CONFIG = parse("cn=config");
  public static final DN BACKENDS = parse("cn=Backends,cn=config");
  public static final DN CONNECTION_HANDLERS = parse("cn=Connection Handlers,cn=config");
  public static final DN ROOT_DNS = parse("cn=Root DNs,cn=config");
  public static final DN LOGGERS = parse("cn=Loggers,cn=config");
  public static final DN PASSWORD_POLICIES = parse("cn=Password Policies,cn=config");
  public static final DN PASSWORD_STORAGE_SCHEMES = parse("cn=Password Storage Schemes,cn=config");
  public static final DN PASSWORD_VALIDATORS = parse("cn=Password Validators,cn=config");
  public static final DN PLUGINS = parse("cn=Plugins,cn=config");
  public static final DN KEY_MANAGER_PROVIDERS = parse("cn=Key Manager Providers,cn=config");
  public static final DN TRUST_MANAGER_PROVIDERS = parse("cn=Trust Manager Providers,cn=config");
  public static final DN SASL_MECHANISM_HANDLERS = parse("cn=SASL Mechanisms,cn=config");
  public static final DN REFERENTIAL_INTEGRITY = named("Referential Integrity", PLUGINS);
  public static final DN DEFAULT_KEY_MANAGER = named("Default Key Manager", KEY_MANAGER_PROVIDERS);
  public static final DN DEFAULT_TRUST_MANAGER =
      named("Default Trust Manager", TRUST_MANAGER_PROVIDERS);

  private ConfigDns() {}

  public static DN parse(String dn) {
    try {
      return new DN(dn);
    } catch (LDAPException e) {
      throw new IllegalArgumentException(dn, e);
    }
  }

  /** The entry {@code cn=<name>} below {@code parent}. */
  public static DN named(String name, DN parent) {
    return new DN(new RDN("cn", name), parent);
  }

  public static DN backend(String id) {
    return new DN(new RDN("ds-cfg-backend-id", id), BACKENDS);
  }

  public static DN indexes(String backendId) {
    return new DN(new RDN("cn", "Index"), backend(backendId));
  }

  public static DN vlvIndexes(String backendId) {
    return new DN(new RDN("cn", "VLV Index"), backend(backendId));
  }

  public static DN index(String backendId, String attribute) {
    return new DN(new RDN("ds-cfg-attribute", attribute), indexes(backendId));
  }

  public static DN connectionHandler(String name) {
    return new DN(new RDN("cn", name), CONNECTION_HANDLERS);
  }

  public static DN logPublisher(String name) {
    return new DN(new RDN("cn", name), LOGGERS);
  }

  /** Where the filtering criteria of an access log publisher live, as in OpenDJ. */
  public static DN filteringCriteria(String publisher) {
    return new DN(new RDN("cn", "Filtering Criteria"), logPublisher(publisher));
  }

  public static DN passwordPolicy(String name) {
    return new DN(new RDN("cn", name), PASSWORD_POLICIES);
  }

  public static DN passwordValidator(String name) {
    return new DN(new RDN("cn", name), PASSWORD_VALIDATORS);
  }

  public static DN passwordStorageScheme(String name) {
    return new DN(new RDN("cn", name), PASSWORD_STORAGE_SCHEMES);
  }

  /** True for {@code cn=config} and every entry below it. */
  public static boolean isConfig(DN dn) {
    return dn.isDescendantOf(CONFIG, true);
  }

  public static DN rootDn(String cn) {
    return new DN(new RDN("cn", cn), ROOT_DNS);
  }
}
