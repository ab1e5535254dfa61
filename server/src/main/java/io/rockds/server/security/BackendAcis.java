package io.rockds.server.security;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.security.aci.Aci;
import io.rockds.server.security.aci.AciCache;
import io.rockds.server.security.aci.AciSyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the ACIs held by entries: with the default {@code aci} presence index, one index read per
 * base DN plus one entry read per holder. A value that does not parse (imported, or written before
 * validation) is logged and ignored, which can only deny more.
 */
final class BackendAcis implements AciCache.Loader {
  private static final Logger LOG = LoggerFactory.getLogger(BackendAcis.class);
  private static final Filter HAS_ACI = Filter.createPresenceFilter(AccessControl.ACI);

  private final EntryLookup entries;

  BackendAcis(EntryLookup entries) {
    this.entries = entries;
  }

  @Override
  public Map<DN, List<Aci>> load() throws LDAPException {
    Map<DN, List<Aci>> byHolder = new HashMap<>();
    for (Entry entry : entries.findAll(HAS_ACI)) {
      DN holder = entry.getParsedDN();
      List<Aci> acis = new ArrayList<>();
      for (String value : entry.getAttributeValues(AccessControl.ACI)) {
        try {
          acis.add(Aci.parse(value, holder));
        } catch (AciSyntaxException e) {
          LOG.warn("ignoring the invalid ACI of {}: {}: {}", holder, value, e.getMessage());
        }
      }
      byHolder.put(holder, List.copyOf(acis));
    }
    return byHolder;
  }
}
