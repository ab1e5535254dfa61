package io.rockds.server.group;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.backend.Change;
import io.rockds.server.backend.ChangeListener;
import io.rockds.server.security.privilege.Privilege;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code ds-privilege-name} values of the static groups that carry any, by group DN: what a
 * bind adds to the identity of a member. Most directories have no such group or a handful, so a
 * bind then needs no membership lookup at all, and never decodes a large group's member list to
 * learn that it grants nothing. Loaded from the backends' groups on first use, then kept current by
 * the committed changes it hears (a rename, which may move groups below the renamed entry, makes it
 * load again).
 */
public final class GroupPrivileges implements ChangeListener {
  private final Groups groups;
  private final Object lock = new Object();

  /** Null until loaded, and again after a rename. Replaced whole, never mutated. */
  private volatile Map<DN, Set<String>> byGroup;

  /** Counts the changes heard, so that a load overtaken by a change is not kept. */
  private long changes;

  GroupPrivileges(Groups groups) {
    this.groups = groups;
  }

  /** The privileged groups and what each grants; empty when no group grants anything. */
  public Map<DN, Set<String>> byGroup() throws LDAPException {
    Map<DN, Set<String>> current = byGroup;
    if (current != null) {
      return current;
    }
    long seen;
    synchronized (lock) {
      if (byGroup != null) {
        return byGroup;
      }
      seen = changes;
    }
    Map<DN, Set<String>> loaded = groups.privilegedGroups();
    synchronized (lock) {
      if (byGroup == null && changes == seen) {
        byGroup = loaded;
      }
    }
    return loaded;
  }

  @Override
  public void committed(Change change) {
    synchronized (lock) {
      changes++;
      Map<DN, Set<String>> current = byGroup;
      if (current == null) {
        return;
      }
      if (change.type() == Change.Type.MODIFY_DN) {
        byGroup = null;
        return;
      }
      Set<String> granted =
          change.type() == Change.Type.DELETE ? Set.of() : granted(change.entry());
      if (granted.isEmpty() && !current.containsKey(change.dn())) {
        return;
      }
      Map<DN, Set<String>> next = new HashMap<>(current);
      if (granted.isEmpty()) {
        next.remove(change.dn());
      } else {
        next.put(change.dn(), granted);
      }
      byGroup = Map.copyOf(next);
    }
  }

  /** The privileges {@code entry} grants its members: none unless it is a static group. */
  static Set<String> granted(Entry entry) {
    String[] values = entry.getAttributeValues(Privilege.ATTRIBUTE);
    if (values == null || !Groups.isStaticGroup(entry)) {
      return Set.of();
    }
    return Set.copyOf(List.of(values));
  }
}
