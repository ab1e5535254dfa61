package io.rockds.server.group;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.storage.EntryContainer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps member and uniqueMember values pointing at entries that exist: after a delete the DN is
 * removed from every group listing it, after a rename (of an entry and its subtree) it is replaced
 * by the new DN. Like OpenLDAP's refint overlay and OpenDJ's plugin this runs after the operation
 * committed, one group modify at a time: a failure is logged, never undoes the client's operation.
 * A group left without members keeps no member attribute.
 */
public final class ReferentialIntegrity {
  private static final Logger LOG = LoggerFactory.getLogger(ReferentialIntegrity.class);

  private final Groups groups;

  public ReferentialIntegrity(Groups groups) {
    this.groups = groups;
  }

  /** Removes every deleted DN from the groups that list it. */
  public void deleted(List<DN> dns) {
    if (!groups.referentialIntegrity()) {
      return;
    }
    for (DN dn : dns) {
      update(dn, null);
    }
  }

  /**
   * Rewrites member values after {@code oldDn} became {@code newDn}; {@code container} holds the
   * renamed subtree, whose entries are visited to learn their former DNs.
   */
  public void renamed(EntryContainer container, DN oldDn, DN newDn) {
    if (!groups.referentialIntegrity()) {
      return;
    }
    List<DN> moved = new ArrayList<>();
    try {
      container.visitScope(
          newDn,
          SearchScope.SUB,
          (key, id) -> {
            Entry e = container.get(id);
            if (e != null) {
              moved.add(e.getParsedDN());
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
      update(new DN(before), now);
    }
  }

  /** In each group listing {@code from}: drop it, and list {@code to} instead when not null. */
  private void update(DN from, DN to) {
    try {
      for (DN group : groups.directGroups(from)) {
        EntryContainer container = groups.containerOf(group);
        if (container == null) {
          throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "no backend holds " + group);
        }
        container.modify(group, current -> rewrite(current, from, to));
      }
    } catch (LDAPException e) {
      LOG.warn("referential integrity: cannot update the groups of {}: {}", from, e.getMessage());
    }
  }

  static Entry rewrite(Entry group, DN from, DN to) {
    for (String name : Groups.MEMBER_ATTRIBUTES) {
      Attribute attribute = group.getAttribute(name);
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
        group.removeAttribute(attribute.getName());
        if (!kept.isEmpty()) {
          group.addAttribute(new Attribute(attribute.getName(), kept));
        }
      }
    }
    return group;
  }
}
