package io.rockds.config;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import java.util.ArrayList;
import java.util.List;

/** The configuration {@code setup} writes for a new instance. */
public final class InitialConfig {
  /** The indexes OpenDJ creates by default, which operators expect: attribute, then index types. */
  public static final List<List<String>> DEFAULT_INDEXES =
      List.of(
          List.of("aci", "presence"),
          List.of("entryUUID", "equality"),
          List.of("objectClass", "equality"),
          List.of("member", "equality"),
          List.of("uniqueMember", "equality"),
          List.of("uid", "equality"),
          List.of("cn", "equality", "substring"),
          List.of("givenName", "equality", "substring"),
          List.of("mail", "equality", "substring"),
          List.of("sn", "equality", "substring"),
          List.of("telephoneNumber", "equality", "substring"));

  /** The root privileges OpenDJ gives {@code cn=Directory Manager}. */
  public static final List<String> ROOT_PRIVILEGES =
      List.of(
          "bypass-acl",
          "unindexed-search",
          "config-read",
          "config-write",
          "password-reset",
          "proxied-auth",
          "backend-backup",
          "backend-restore",
          "privilege-change",
          "monitor-read");

  /** Where the global ACIs live ({@code ds-cfg-global-aci}), as in OpenDJ. */
  public static final DN ACCESS_CONTROL_HANDLER =
      ConfigDns.parse("cn=Access Control Handler,cn=config");

  /** The policy every entry without {@code ds-pwp-password-policy-dn} follows. */
  public static final DN DEFAULT_PASSWORD_POLICY =
      ConfigDns.parse("cn=Default Password Policy,cn=Password Policies,cn=config");

  /**
   * The global ACIs, secure by default: anonymous clients read only the root DSE and the schema;
   * authenticated users read and search everything but passwords; users change their own password.
   * {@code cn=config} is governed by the config-read and config-write privileges.
   */
  public static final List<String> GLOBAL_ACIS =
      List.of(
          "(target=\"ldap:///\")(targetscope=\"base\")(targetattr=\"*||+\")(version 3.0; acl \"Anonymous read access"
              + " to the root DSE\"; allow (read,search,compare) userdn=\"ldap:///anyone\";)",
          "(target=\"ldap:///cn=schema\")(targetscope=\"base\")(targetattr=\"*||+\")(version 3.0; acl \"Anonymous"
              + " read access to the schema\"; allow (read,search,compare) userdn=\"ldap:///anyone\";)",
          "(targetattr!=\"userPassword||authPassword\")(version 3.0; acl \"Authenticated users read access\";"
              + " allow (read,search,compare) userdn=\"ldap:///all\";)",
          "(targetattr=\"createTimestamp||creatorsName||modifiersName||modifyTimestamp||entryDN||entryUUID"
              + "||subschemaSubentry||hasSubordinates||numSubordinates||structuralObjectClass||memberOf||isMemberOf\")"
              + "(version 3.0; acl \"User-visible operational"
              + " attributes\"; allow (read,search,compare) userdn=\"ldap:///all\";)",
          "(targetattr=\"userPassword||authPassword\")(version 3.0; acl \"Self password modification\";"
              + " allow (write) userdn=\"ldap:///self\";)");

  /**
   * The password storage schemes of the server, as OpenDJ names their entries: entry name, then the
   * {SCHEME} prefix the server knows the scheme by.
   */
  public static final List<List<String>> PASSWORD_STORAGE_SCHEMES =
      List.of(
          List.of("Salted SHA-1", "SSHA"),
          List.of("Salted SHA-256", "SSHA256"),
          List.of("Salted SHA-384", "SSHA384"),
          List.of("Salted SHA-512", "SSHA512"),
          List.of("Salted MD5", "SMD5"),
          List.of("SHA-1", "SHA"),
          List.of("SHA-256", "SHA256"),
          List.of("SHA-384", "SHA384"),
          List.of("SHA-512", "SHA512"),
          List.of("MD5", "MD5"),
          List.of("PBKDF2", "PBKDF2"),
          List.of("PBKDF2-SHA1", "PBKDF2-SHA1"),
          List.of("PBKDF2-SHA256", "PBKDF2-SHA256"),
          List.of("PBKDF2-SHA512", "PBKDF2-SHA512"),
          List.of("PBKDF2-HMAC-SHA256", "PBKDF2-HMAC-SHA256"),
          List.of("PBKDF2-HMAC-SHA512", "PBKDF2-HMAC-SHA512"),
          List.of("Bcrypt", "BCRYPT"),
          List.of("Argon2", "ARGON2"),
          List.of("Crypt", "CRYPT"),
          List.of("Clear", "CLEAR"));

  /**
   * The validators the default password policy applies to new passwords; the character set one is
   * left for operators.
   */
  public static final String LENGTH_VALIDATOR = "Length-Based Password Validator";

  public static final String DICTIONARY_VALIDATOR = "Dictionary";
  public static final String ATTRIBUTE_VALUE_VALIDATOR = "Attribute Value";

  /**
   * Consecutive wrong passwords that lock an account of the default policy (for lockout-duration).
   */
  public static final int DEFAULT_LOCKOUT_FAILURE_COUNT = 10;

  /** The scheme the default password policy hashes with (matches the server's default). */
  public static final String DEFAULT_SCHEME_ENTRY = "Salted SHA-512";

  /**
   * What setup was asked for.
   *
   * @param ldapPort 0 picks a free port at each start (tests)
   * @param ldapsPort negative for no LDAPS listener; 0 picks a free port at each start
   */
  public record Parameters(
      DN baseDn,
      String listenAddress,
      int ldapPort,
      int ldapsPort,
      DN rootUserDn,
      String rootPasswordHash,
      boolean allowAnonymousRead,
      int httpPort,
      String passwordScheme) {

    /** No HTTP endpoint, the default password scheme. */
    public Parameters(
        DN baseDn,
        String listenAddress,
        int ldapPort,
        int ldapsPort,
        DN rootUserDn,
        String rootPasswordHash,
        boolean allowAnonymousRead) {
      this(
          baseDn,
          listenAddress,
          ldapPort,
          ldapsPort,
          rootUserDn,
          rootPasswordHash,
          allowAnonymousRead,
          -1,
          null);
    }

    public Parameters withHttpPort(int port) {
      return with(rootPasswordHash, port);
    }

    public Parameters withRootPasswordHash(String hash) {
      return with(hash, httpPort);
    }

    private Parameters with(String newRootPasswordHash, int newHttpPort) {
      return new Parameters(
          baseDn,
          listenAddress,
          ldapPort,
          ldapsPort,
          rootUserDn,
          newRootPasswordHash,
          allowAnonymousRead,
          newHttpPort,
          passwordScheme);
    }
  }

  /**
   * The storage scheme entry whose scheme is {@code name} ({@code SSHA}, {@code {SSHA512}}, {@code
   * pbkdf2-sha256}: braces and case ignored), as the default password policy names it.
   */
  public static String schemeEntry(String name) {
    String wanted = name.replace("{", "").replace("}", "").trim();
    for (List<String> scheme : PASSWORD_STORAGE_SCHEMES) {
      if (scheme.get(1).equalsIgnoreCase(wanted) || scheme.get(0).equalsIgnoreCase(wanted)) {
        return scheme.get(0);
      }
    }
    throw new IllegalArgumentException(
        "password storage scheme: "
            + name
            + " (expected one of: "
            + PASSWORD_STORAGE_SCHEMES.stream().map(s -> s.get(1)).toList()
            + ")");
  }

  private InitialConfig() {}

  public static List<Entry> entries(Parameters p) {
    List<Entry> entries = new ArrayList<>();
    entries.add(
        new Entry(
            "cn=config",
            new Attribute("objectClass", "top", "ds-cfg-root-config"),
            new Attribute("cn", "config"),
            new Attribute("ds-cfg-size-limit", "1000"),
            new Attribute("ds-cfg-time-limit", "60"),
            new Attribute("ds-cfg-lookthrough-limit", "5000"),
            new Attribute("ds-cfg-allow-anonymous-read", Boolean.toString(p.allowAnonymousRead())),
            new Attribute(
                "ds-cfg-default-password-policy",
                ConfigDns.passwordPolicy("Default Password Policy").toString()),
            new Attribute("ds-cfg-http-port", Integer.toString(p.httpPort())),
            // The metrics endpoint listens where LDAP does: loopback for the quick start, all
            // addresses in a container.
            new Attribute("ds-cfg-http-listen-address", p.listenAddress())));
    entries.add(container(ConfigDns.BACKENDS, "Backends"));
    entries.add(
        new Entry(
            ConfigDns.backend("userRoot"),
            new Attribute("objectClass", "top", "ds-cfg-backend", "ds-cfg-rocksdb-backend"),
            new Attribute("ds-cfg-backend-id", "userRoot"),
            new Attribute("ds-cfg-enabled", "true"),
            new Attribute("ds-cfg-base-dn", p.baseDn().toString()),
            new Attribute("ds-cfg-db-directory", "db/userRoot"),
            new Attribute("ds-cfg-index-entry-limit", "4000")));
    entries.add(container(ConfigDns.indexes("userRoot"), "Index"));
    entries.add(container(ConfigDns.vlvIndexes("userRoot"), "VLV Index"));
    for (List<String> index : DEFAULT_INDEXES) {
      entries.add(
          new Entry(
              ConfigDns.index("userRoot", index.get(0)),
              new Attribute("objectClass", "top", "ds-cfg-backend-index"),
              new Attribute("ds-cfg-attribute", index.get(0)),
              new Attribute("ds-cfg-index-type", index.subList(1, index.size()))));
    }
    entries.add(container(ConfigDns.CONNECTION_HANDLERS, "Connection Handlers"));
    entries.add(handler("LDAP Connection Handler", p.listenAddress(), p.ldapPort(), false));
    if (p.ldapsPort() >= 0) {
      entries.add(handler("LDAPS Connection Handler", p.listenAddress(), p.ldapsPort(), true));
    }
    entries.add(
        new Entry(
            ACCESS_CONTROL_HANDLER,
            new Attribute(
                "objectClass",
                "top",
                "ds-cfg-access-control-handler",
                "ds-cfg-dsee-compat-access-control-handler"),
            new Attribute("cn", "Access Control Handler"),
            new Attribute("ds-cfg-enabled", "true"),
            new Attribute("ds-cfg-global-aci", GLOBAL_ACIS)));
    entries.add(rootDns());
    entries.add(
        new Entry(
            ConfigDns.rootDn("Directory Manager"),
            new Attribute("objectClass", "top", "person", "ds-cfg-root-dn-user"),
            new Attribute("cn", "Directory Manager"),
            new Attribute("sn", "Manager"),
            new Attribute("ds-cfg-alternate-bind-dn", p.rootUserDn().toString()),
            new Attribute("userPassword", p.rootPasswordHash())));
    entries.add(container(ConfigDns.LOGGERS, "Loggers"));
    entries.add(
        new Entry(
            ConfigDns.logPublisher("File-Based Access Logger"),
            new Attribute(
                "objectClass",
                "top",
                "ds-cfg-log-publisher",
                "ds-cfg-file-based-access-log-publisher"),
            new Attribute("cn", "File-Based Access Logger"),
            new Attribute("ds-cfg-enabled", "true"),
            new Attribute("ds-cfg-log-file", "logs/access"),
            new Attribute("ds-cfg-log-format", "combined")));
    entries.add(
        new Entry(
            ConfigDns.logPublisher("File-Based Error Logger"),
            new Attribute(
                "objectClass",
                "top",
                "ds-cfg-log-publisher",
                "ds-cfg-file-based-error-log-publisher"),
            new Attribute("cn", "File-Based Error Logger"),
            new Attribute("ds-cfg-enabled", "true"),
            new Attribute("ds-cfg-log-file", "logs/errors")));
    entries.add(container(ConfigDns.PASSWORD_STORAGE_SCHEMES, "Password Storage Schemes"));
    for (List<String> scheme : PASSWORD_STORAGE_SCHEMES) {
      entries.add(
          new Entry(
              ConfigDns.passwordStorageScheme(scheme.get(0)),
              new Attribute("objectClass", "top", "ds-cfg-password-storage-scheme"),
              new Attribute("cn", scheme.get(0)),
              new Attribute("ds-cfg-enabled", Boolean.toString(!scheme.get(1).equals("CLEAR"))),
              new Attribute("ds-cfg-scheme-name", scheme.get(1))));
    }
    entries.addAll(pluginsAndProviders());
    entries.add(container(ConfigDns.PASSWORD_VALIDATORS, "Password Validators"));
    entries.add(validator(LENGTH_VALIDATOR, "length-based", "ds-cfg-min-password-length: 8"));
    entries.add(
        validator(DICTIONARY_VALIDATOR, "dictionary", "ds-cfg-case-sensitive-validation: false"));
    entries.add(
        validator(
            ATTRIBUTE_VALUE_VALIDATOR, "attribute-value", "ds-cfg-test-reversed-password: true"));
    entries.add(
        validator(
            "Character Set",
            "character-set",
            "ds-cfg-character-set: 1:abcdefghijklmnopqrstuvwxyz",
            "ds-cfg-character-set: 1:ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "ds-cfg-character-set: 1:0123456789",
            "ds-cfg-character-set: 1:~!@#$%^&*()-_=+[]{}|;:,.<>/?'\"`\\",
            "ds-cfg-min-character-sets: 3"));
    entries.add(container(ConfigDns.PASSWORD_POLICIES, "Password Policies"));
    entries.add(
        new Entry(
            ConfigDns.passwordPolicy("Default Password Policy"),
            new Attribute("objectClass", "top", "ds-cfg-password-policy"),
            new Attribute("cn", "Default Password Policy"),
            new Attribute("ds-cfg-password-attribute", "userPassword"),
            new Attribute(
                "ds-cfg-default-password-storage-scheme",
                ConfigDns.passwordStorageScheme(
                        p.passwordScheme() == null
                            ? DEFAULT_SCHEME_ENTRY
                            : schemeEntry(p.passwordScheme()))
                    .toString()),
            // New passwords: 8 characters or more, not a common password, not the user's own name.
            new Attribute(
                "ds-cfg-password-validator",
                LENGTH_VALIDATOR,
                DICTIONARY_VALIDATOR,
                ATTRIBUTE_VALUE_VALIDATOR),
            new Attribute("ds-cfg-min-password-length", "0"),
            new Attribute("ds-cfg-password-history-count", "0"),
            // Online guessing: 10 wrong passwords in a row lock the account for 5 minutes.
            new Attribute(
                "ds-cfg-lockout-failure-count", Integer.toString(DEFAULT_LOCKOUT_FAILURE_COUNT)),
            new Attribute("ds-cfg-lockout-duration", "5 m"),
            new Attribute("ds-cfg-force-change-on-reset", "false"),
            new Attribute("ds-cfg-allow-user-password-changes", "true")));
    return entries;
  }

  private static Entry validator(String name, String type, String... properties) {
    Entry entry =
        enabledObject(
            ConfigDns.passwordValidator(name),
            name,
            "ds-cfg-password-validator",
            "ds-cfg-" + type + "-password-validator");
    for (String property : properties) {
      int colon = property.indexOf(": ");
      entry.addAttribute(property.substring(0, colon), property.substring(colon + 2));
    }
    return entry;
  }

  /**
   * An enabled configuration object: its kind's object class and its type's, its {@code cn}, then
   * its own attributes.
   */
  private static Entry enabledObject(
      DN dn, String cn, String kindClass, String typeClass, Attribute... attributes) {
    Entry entry =
        new Entry(
            dn,
            new Attribute("objectClass", "top", kindClass, typeClass),
            new Attribute("cn", cn),
            new Attribute("ds-cfg-enabled", "true"));
    for (Attribute attribute : attributes) {
      entry.addAttribute(attribute);
    }
    return entry;
  }

  /**
   * {@code cn=Root DNs}: the privileges every root user holds ({@code
   * default-root-privilege-name}), beside those of its own {@code ds-privilege-name}.
   */
  static Entry rootDns() {
    return new Entry(
        ConfigDns.ROOT_DNS,
        new Attribute("objectClass", "top", "ds-cfg-branch", "ds-cfg-root-dn"),
        new Attribute("cn", "Root DNs"),
        new Attribute("ds-cfg-default-root-privilege-name", ROOT_PRIVILEGES));
  }

  /**
   * The plugins, key and trust manager providers and SASL mechanism handlers, with their
   * containers, as a new instance has them (and {@link ConfigUpgrade} adds to older ones).
   */
  static List<Entry> pluginsAndProviders() {
    return List.of(
        container(ConfigDns.PLUGINS, "Plugins"),
        enabledObject(
            ConfigDns.REFERENTIAL_INTEGRITY,
            "Referential Integrity",
            "ds-cfg-plugin",
            "ds-cfg-referential-integrity-plugin",
            new Attribute("ds-cfg-attribute-type", "member", "uniqueMember")),
        container(ConfigDns.KEY_MANAGER_PROVIDERS, "Key Manager Providers"),
        fileBasedProvider(ConfigDns.DEFAULT_KEY_MANAGER, "key", "config/keystore.p12"),
        container(ConfigDns.TRUST_MANAGER_PROVIDERS, "Trust Manager Providers"),
        fileBasedProvider(ConfigDns.DEFAULT_TRUST_MANAGER, "trust", "config/truststore.p12"),
        container(ConfigDns.SASL_MECHANISM_HANDLERS, "SASL Mechanisms"),
        saslHandler("PLAIN", "plain"),
        saslHandler("EXTERNAL", "external"));
  }

  /** A file-based {@code kind} ("key" or "trust") manager provider reading {@code file}. */
  private static Entry fileBasedProvider(DN dn, String kind, String file) {
    return enabledObject(
        dn,
        dn.getRDN().getAttributeValues()[0],
        "ds-cfg-" + kind + "-manager-provider",
        "ds-cfg-file-based-" + kind + "-manager-provider",
        new Attribute("ds-cfg-" + kind + "-store-file", file),
        new Attribute("ds-cfg-" + kind + "-store-pin-file", file + ".pin"));
  }

  private static Entry saslHandler(String name, String type) {
    return enabledObject(
        ConfigDns.named(name, ConfigDns.SASL_MECHANISM_HANDLERS),
        name,
        "ds-cfg-sasl-mechanism-handler",
        "ds-cfg-" + type + "-sasl-mechanism-handler");
  }

  private static Entry container(DN dn, String cn) {
    return new Entry(
        dn, new Attribute("objectClass", "top", "ds-cfg-branch"), new Attribute("cn", cn));
  }

  private static Entry handler(String name, String address, int port, boolean ssl) {
    return new Entry(
        ConfigDns.connectionHandler(name),
        new Attribute(
            "objectClass", "top", "ds-cfg-connection-handler", "ds-cfg-ldap-connection-handler"),
        new Attribute("cn", name),
        new Attribute("ds-cfg-enabled", "true"),
        new Attribute("ds-cfg-listen-address", address),
        new Attribute("ds-cfg-listen-port", Integer.toString(port)),
        new Attribute("ds-cfg-use-ssl", Boolean.toString(ssl)),
        new Attribute("ds-cfg-allow-start-tls", Boolean.toString(!ssl)));
  }
}
