package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.ArrayList;
import java.util.List;

/**
 * A root user ({@code cn=<name>,cn=Root DNs,cn=config}): binds as any of {@code bindDns} (the
 * config entry's own DN and its {@code ds-cfg-alternate-bind-dn} values, e.g. {@code cn=Directory
 * Manager}) with a hashed {@code userPassword}, and holds privileges.
 */
public record RootDnConfig(
    DN configDn, List<DN> bindDns, List<String> passwordHashes, List<String> privileges) {

  static RootDnConfig from(ConfigEntry e) throws ConfigException {
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
    return new RootDnConfig(own, List.copyOf(bindDns), hashes, e.strings("ds-privilege-name"));
  }
}
