package io.rockds.config;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Brings a configuration written by an older RockDS up to the current layout when it is loaded, so
 * that every object dsconfig knows exists: the plugins, key and trust manager providers and SASL
 * mechanism handlers are added with the defaults a new instance gets, the former global {@code
 * referential-integrity} switch becomes the referential integrity plugin's {@code enabled}, and
 * {@code cn=Root DNs} takes the default root privileges (dropped from each root user's own list,
 * where they were before). The file is rewritten only at the next configuration change.
 */
final class ConfigUpgrade {
  private static final String OLD_INTEGRITY_SWITCH = "ds-cfg-referential-integrity";

  private ConfigUpgrade() {}

  /** Upgrades {@code store} in memory; a store without {@code cn=Root DNs} is no server's. */
  static void apply(ConfigStore store) throws ConfigException, LDAPException {
    Entry config = store.get(ConfigDns.CONFIG);
    if (store.get(ConfigDns.ROOT_DNS) == null) {
      return;
    }
    for (Entry missing : InitialConfig.pluginsAndProviders()) {
      if (store.get(missing.getParsedDN()) == null) {
        Entry added = missing.duplicate();
        if (added.getParsedDN().equals(ConfigDns.REFERENTIAL_INTEGRITY)
            && config != null
            && config.hasAttribute(OLD_INTEGRITY_SWITCH)) {
          added.setAttribute("ds-cfg-enabled", config.getAttributeValue(OLD_INTEGRITY_SWITCH));
        }
        store.put(added);
      }
    }
    if (config != null && config.hasAttribute(OLD_INTEGRITY_SWITCH)) {
      Entry updated = config.duplicate();
      updated.removeAttribute(OLD_INTEGRITY_SWITCH);
      store.put(updated);
    }
    Entry rootDns = store.get(ConfigDns.ROOT_DNS);
    if (!rootDns.hasObjectClass("ds-cfg-root-dn")) {
      moveCommonRootPrivileges(store);
    }
  }

  /**
   * The privileges every root user holds become {@code cn=Root DNs}' {@code
   * default-root-privilege-name} and leave the users' own lists, so each keeps exactly what it had
   * (with no root user, the defaults of a new instance).
   */
  private static void moveCommonRootPrivileges(ConfigStore store) throws ConfigException {
    List<Entry> users = store.children(ConfigDns.ROOT_DNS);
    Set<String> common = null;
    for (Entry user : users) {
      Set<String> own = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
      String[] values = user.getAttributeValues("ds-privilege-name");
      own.addAll(values == null ? List.of() : List.of(values));
      if (common == null) {
        common = own;
      } else {
        common.retainAll(own);
      }
    }
    Entry container = InitialConfig.rootDns();
    if (common != null) {
      container.removeAttribute("ds-cfg-default-root-privilege-name");
      if (!common.isEmpty()) {
        container.addAttribute(new Attribute("ds-cfg-default-root-privilege-name", common));
      }
      for (Entry user : users) {
        String[] values = user.getAttributeValues("ds-privilege-name");
        if (values == null) {
          continue;
        }
        List<String> kept = new ArrayList<>(List.of(values));
        kept.removeIf(common::contains);
        Entry updated = user.duplicate();
        updated.removeAttribute("ds-privilege-name");
        if (!kept.isEmpty()) {
          updated.addAttribute(new Attribute("ds-privilege-name", kept));
        }
        store.put(updated);
      }
    }
    store.put(container);
  }
}
