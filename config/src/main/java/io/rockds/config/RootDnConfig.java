package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A root user ({@code cn=<name>,cn=Root DNs,cn=config}): binds as any of {@code bindDns} (the
 * config entry's own DN and its {@code ds-cfg-alternate-bind-dn} values, e.g. {@code cn=Directory
 * Manager}) with a hashed {@code userPassword}, and holds privileges.
 */
public record RootDnConfig(
    DN configDn, List<DN> bindDns, List<String> passwordHashes, List<String> privileges) {

  /**
   * Reads a root user; it holds {@code defaultPrivileges} (the {@code default-root-privilege-name}
   * of {@code cn=Root DNs}) and its own {@code ds-privilege-name}.
   */
  static RootDnConfig from(ConfigEntry e, List<String> defaultPrivileges) throws ConfigException {
    List<DN> bindDns = new ArrayList<>();
    DN own;
    try {
      own = e.entry().getParsedDN();
      bindDns.add(own);
      for (String alt : e.strings("alternate-bind-dn")) {
        bindDns.add(new DN(alt));
      }
    } catch (LDAPException ex) {
      throw new ConfigException(
          e.entry().getDN() + ": ds-cfg-alternate-bind-dn: " + ex.getExceptionMessage());
    }
    List<String> hashes = e.strings("userPassword");
    if (hashes.isEmpty()) {
      throw new ConfigException(e.entry().getDN() + ": userPassword is required for a root DN");
    }
    Set<String> privileges = new LinkedHashSet<>(defaultPrivileges);
    privileges.addAll(e.strings("ds-privilege-name"));
    return new RootDnConfig(own, List.copyOf(bindDns), hashes, List.copyOf(privileges));
  }
}
