package io.rockds.server.group;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ReferentialIntegrityConfig;
import io.rockds.server.schema.ServerSchema;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.search.SearchCandidates;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The referential integrity plugin ({@code cn=Referential Integrity,cn=Plugins,cn=config}): keeps
 * the DN values of its attribute types (member and uniqueMember by default) pointing at entries
 * that exist. After a delete the DN is removed from every entry below the plugin's base DNs that
 * holds it; after a rename (of an entry and its subtree) it is replaced by the new DN.
 *
 * <p>Like OpenLDAP's refint overlay and OpenDJ's plugin this runs right after the operation
 * committed, one modify per referring entry, not in the client's write: that write stays one
 * RocksDB batch of one entry and its index records whatever the number of groups, and a failure
 * here is logged, never undoes the client's operation. An entry left without values keeps no
 * attribute. The referring entries are found through the attributes' equality indexes (setup
 * creates them for member and uniqueMember); another attribute type without one costs a scan.
 */
public final class ReferentialIntegrity {
  private static final Logger LOG = LoggerFactory.getLogger(ReferentialIntegrity.class);

  private final Groups groups;
  private final ServerSchema schema;
  private final Supplier<ReferentialIntegrityConfig> config;

  /**
   * @param config the plugin's configuration, asked at each write (it changes live)
   */
  ReferentialIntegrity(
      Groups groups, ServerSchema schema, Supplier<ReferentialIntegrityConfig> config) {
    this.groups = groups;
    this.schema = schema;
    this.config = config;
  }

  /** Whether the plugin is on now. */
  public boolean enabled() {
    return config.get().enabled();
  }

  /** Removes every deleted DN from the entries that refer to it. */
  public void deleted(List<DN> dns) {
    ReferentialIntegrityConfig current = config.get();
    if (!current.enabled()) {
      return;
    }
    for (DN dn : dns) {
      update(current, dn, null);
    }
  }

  /**
   * Rewrites references after {@code oldDn} became {@code newDn}; {@code container} holds the
   * renamed subtree, whose entries are visited to learn their former DNs.
   */
  public void renamed(EntryContainer container, DN oldDn, DN newDn) {
    ReferentialIntegrityConfig current = config.get();
    if (!current.enabled()) {
      return;
    }
    List<DN> moved = new ArrayList<>();
    try {
      container.visitScope(
          newDn,
          SearchScope.SUB,
          (key, id) -> {
            DN dn = container.dnOf(id);
            if (dn != null) {
              moved.add(dn);
            }
            return true;
          });
    } catch (LDAPException e) {
      LOG.warn(
          "referential integrity: cannot list the entries renamed to {}: {}",
          newDn,
          e.getMessage());
      return;
    }
    int newDepth = newDn.getRDNs().length;
    for (DN now : moved) {
      RDN[] rdns = now.getRDNs();
      RDN[] relative = Arrays.copyOf(rdns, rdns.length - newDepth);
      RDN[] before = Arrays.copyOf(relative, relative.length + oldDn.getRDNs().length);
      System.arraycopy(oldDn.getRDNs(), 0, before, relative.length, oldDn.getRDNs().length);
      update(current, new DN(before), now);
    }
  }

  /** In each entry referring to {@code from}: drop it, and refer to {@code to} instead if set. */
  private void update(ReferentialIntegrityConfig current, DN from, DN to) {
    List<Filter> refers = new ArrayList<>();
    for (String type : current.attributeTypes()) {
      refers.add(Filter.createEqualityFilter(type, from.toString()));
    }
    Filter filter = Filter.createORFilter(refers);
    try {
      for (EntryContainer container : groups.containers()) {
        List<DN> referring = new ArrayList<>();
        SearchCandidates.visitMatches(
            container,
            schema.current(),
            filter,
            0,
            entry -> {
              DN dn = entry.getParsedDN();
              if (current.covers(dn)) {
                referring.add(dn);
              }
              return true;
            });
        // The rewrite reads and adds only these values: in a group of a million members it
        // changes one without reading the others.
        List<Attribute> named = new ArrayList<>();
        for (String type : current.attributeTypes()) {
          named.add(
              to == null
                  ? new Attribute(type, from.toString())
                  : new Attribute(type, from.toString(), to.toString()));
        }
        for (DN dn : referring) {
          container.modify(dn, named, entry -> rewrite(entry, current.attributeTypes(), from, to));
        }
      }
    } catch (LDAPException e) {
      LOG.warn(
          "referential integrity: cannot update the entries referring to {}: {}",
          from,
          e.getMessage());
    }
  }

  static Entry rewrite(Entry entry, List<String> attributeTypes, DN from, DN to) {
    for (String name : attributeTypes) {
      Attribute attribute = entry.getAttribute(name);
      if (attribute == null) {
        continue;
      }
      List<String> kept = new ArrayList<>();
      boolean changed = false;
      for (String value : attribute.getValues()) {
        if (Groups.sameDn(value, from)) {
          changed = true;
        } else {
          kept.add(value);
        }
      }
      if (changed) {
        if (to != null) {
          kept.add(to.toString());
        }
        entry.removeAttribute(attribute.getName());
        if (!kept.isEmpty()) {
          entry.addAttribute(new Attribute(attribute.getName(), kept));
        }
      }
    }
    return entry;
  }
}
