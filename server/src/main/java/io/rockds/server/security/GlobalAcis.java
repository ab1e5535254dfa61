package io.rockds.server.security;

import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.GlobalConfig;
import io.rockds.config.InitialConfig;
import io.rockds.server.security.aci.Aci;
import io.rockds.server.security.aci.AciSyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * The global ACIs: the {@code ds-cfg-global-aci} values of {@code cn=Access Control
 * Handler,cn=config} (the built-in defaults when an older configuration lacks the entry), plus,
 * when {@code ds-cfg-allow-anonymous-read} is true, anonymous read and search of everything but
 * passwords: the switch OpenLDAP and 389 DS ship open ({@code setup --allowAnonymousRead}).
 */
public final class GlobalAcis {
  static final String ATTRIBUTE = "ds-cfg-global-aci";

  /** What {@code ds-cfg-allow-anonymous-read: true} adds. */
  public static final List<String> ANONYMOUS_READ =
      List.of(
          "(targetattr!=\"userPassword||authPassword\")(version 3.0; acl \"Anonymous read access\";"
              + " allow (read,search,compare) userdn=\"ldap:///anyone\";)",
          "(targetattr=\"createTimestamp||creatorsName||modifiersName||modifyTimestamp||entryDN||entryUUID"
              + "||subschemaSubentry||hasSubordinates||numSubordinates\")(version 3.0; acl \"Anonymous read access to"
              + " operational attributes\"; allow (read,search,compare) userdn=\"ldap:///anyone\";)");

  private GlobalAcis() {}

  public static List<Aci> read(ConfigStore store, GlobalConfig global) throws ConfigException {
    Entry handler = store.get(InitialConfig.ACCESS_CONTROL_HANDLER);
    String[] configured = handler == null ? null : handler.getAttributeValues(ATTRIBUTE);
    List<String> texts =
        new ArrayList<>(
            configured != null
                ? List.of(configured)
                : handler == null ? InitialConfig.GLOBAL_ACIS : List.of());
    if (global.allowAnonymousRead()) {
      texts.addAll(ANONYMOUS_READ);
    }
    List<Aci> acis = new ArrayList<>();
    for (String text : texts) {
      try {
        acis.add(Aci.parse(text, null));
      } catch (AciSyntaxException e) {
        throw new ConfigException(
            InitialConfig.ACCESS_CONTROL_HANDLER
                + ": "
                + ATTRIBUTE
                + ": \""
                + text
                + "\": "
                + e.getMessage(),
            e);
      }
    }
    return acis;
  }
}
