package io.rockds.server.group;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.ReferentialIntegrityConfig;
import io.rockds.server.Backends;
import io.rockds.server.schema.ServerSchema;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IdSet;
import io.rockds.storage.IndexType;
import io.rockds.storage.matching.FilterEvaluator;
import io.rockds.storage.search.VirtualIndexes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Group membership, read from the member and uniqueMember equality indexes: the groups that list a
 * DN are one index read per backend, so memberOf costs a few reads per nesting level instead of a
 * scan of every group. Without such an index (or over its entry limit) the backend's groups are
 * found by a scan, which is correct but slow; setup creates both indexes.
 */
public final class Groups {
  private static final String MEMBER_OF_OID = "1.2.840.113556.1.2.102";
  static final List<String> MEMBER_ATTRIBUTES = List.of("member", "uniqueMember");
  private static final Filter STATIC_GROUPS =
      Filter.createORFilter(
          Filter.createEqualityFilter("objectClass", "groupOfNames"),
          Filter.createEqualityFilter("objectClass", "groupOfUniqueNames"));

  private final Backends backends;
  private final ServerSchema schema;
  private final ReferentialIntegrity integrity;
  private final GroupPrivileges privileges = new GroupPrivileges(this);

  /**
   * @param referentialIntegrity the referential integrity plugin's configuration, asked at each
   *     write (it changes live)
   */
  public Groups(
      Backends backends,
      ServerSchema schema,
      Supplier<ReferentialIntegrityConfig> referentialIntegrity) {
    this.backends = backends;
    this.schema = schema;
    this.integrity = new ReferentialIntegrity(this, schema, referentialIntegrity);
  }

  /** What deletes and renames call once committed; does nothing when turned off. */
  public ReferentialIntegrity integrity() {
    return integrity;
  }

  /** The privileges groups grant their members; hears committed changes to stay current. */
  public GroupPrivileges privileges() {
    return privileges;
  }

  /** The static groups of {@code dn}, nested ones included (memberOf). */
  public Set<DN> memberOf(DN dn) throws LDAPException {
    Set<DN> groups = new LinkedHashSet<>();
    Deque<DN> pending = new ArrayDeque<>();
    pending.add(dn);
    while (!pending.isEmpty()) {
      for (DN group : directGroups(pending.poll())) {
        if (!group.equals(dn) && groups.add(group)) {
          pending.add(group);
        }
      }
    }
    return groups;
  }

  /** memberOf plus the dynamic groups whose memberURL selects {@code entry} (isMemberOf). */
  public Set<DN> isMemberOf(Entry entry) throws LDAPException {
    Set<DN> groups = memberOf(entry.getParsedDN());
    Schema current = schema.current();
    for (EntryContainer container : containers()) {
      for (long id : groupIds(container, "groupOfURLs")) {
        Entry group = container.getForMatching(id);
        if (group != null && selects(group, entry, current)) {
          groups.add(group.getParsedDN());
          groups.addAll(memberOf(group.getParsedDN()));
        }
      }
    }
    return groups;
  }

  /** True if one of the group's memberURLs selects the entry: base, scope and filter. */
  static boolean selects(Entry group, Entry entry, Schema schema) {
    String[] urls = group.getAttributeValues("memberURL");
    if (urls == null) {
      return false;
    }
    for (String url : urls) {
      try {
        LDAPURL parsed = new LDAPURL(url);
        DN base = parsed.getBaseDN();
        DN dn = entry.getParsedDN();
        boolean inScope =
            switch (parsed.getScope().intValue()) {
              case SearchScope.BASE_INT_VALUE -> dn.equals(base);
              case SearchScope.ONE_INT_VALUE -> base.equals(dn.getParent());
              default -> dn.isDescendantOf(base, true);
            };
        if (inScope && FilterEvaluator.forSchema(schema).matches(parsed.getFilter(), entry)) {
          return true;
        }
      } catch (LDAPException malformed) {
        // A URL that does not parse selects nothing, as in OpenDJ.
      }
    }
    return false;
  }

  /**
   * The IDs, in {@code container}, of the entries whose memberOf lists {@code group}: its members,
   * those of its nested groups too. The phase-1 candidates of {@code (memberOf=<group>)}: one read
   * of each group and one dn2id lookup per member, however many entries the scope holds.
   */
  public IdSet memberIds(EntryContainer container, DN group) throws LDAPException {
    IdSet.Builder ids = new IdSet.Builder();
    Set<DN> seen = new LinkedHashSet<>();
    Deque<DN> pending = new ArrayDeque<>();
    pending.add(group);
    seen.add(group);
    while (!pending.isEmpty()) {
      DN current = pending.poll();
      EntryContainer holder = containerOf(current);
      Entry entry = holder == null ? null : holder.get(current);
      if (entry == null) {
        continue;
      }
      for (String attribute : MEMBER_ATTRIBUTES) {
        String[] values = entry.getAttributeValues(attribute);
        for (String value : values == null ? new String[0] : values) {
          DN member;
          try {
            member = new DN(value);
          } catch (LDAPException notADn) {
            continue;
          }
          long id = member.isDescendantOf(container.baseDn(), true) ? container.idOf(member) : -1;
          if (id >= 0) {
            ids.add(id);
          }
          if (seen.add(member)) {
            pending.add(member);
          }
        }
      }
    }
    return ids.build();
  }

  /**
   * Phase-1 candidates of {@code (memberOf=<group DN>)}: the group's members ({@link #memberIds}),
   * so that applications' membership filters are indexed searches. isMemberOf also counts dynamic
   * groups, whose members only a scan finds: it stays unindexed.
   */
  public VirtualIndexes virtualIndexes() {
    return new VirtualIndexes() {
      @Override
      public boolean answers(String attribute) {
        return attribute.equalsIgnoreCase("memberOf") || attribute.equals(MEMBER_OF_OID);
      }

      @Override
      public IdSet equality(EntryContainer container, String attribute, ASN1OctetString value)
          throws LDAPException {
        DN group;
        try {
          group = new DN(value.stringValue());
        } catch (LDAPException notADn) {
          return IdSet.empty();
        }
        return memberIds(container, group);
      }
    };
  }

  EntryContainer containerOf(DN dn) {
    return backends.containerFor(dn);
  }

  /** The groups whose member or uniqueMember attribute holds {@code dn}. */
  public List<DN> directGroups(DN dn) throws LDAPException {
    List<DN> groups = new ArrayList<>();
    for (EntryContainer container : containers()) {
      IdSet ids = IdSet.empty();
      boolean indexed = true;
      for (String attribute : MEMBER_ATTRIBUTES) {
        IdSet listed = listing(container, attribute, dn);
        if (listed == null) {
          indexed = false;
          break;
        }
        ids = ids.union(listed);
      }
      if (indexed) {
        for (long id : ids.toArray()) {
          DN group = container.dnOf(id);
          if (group != null) {
            groups.add(group);
          }
        }
      } else {
        for (long id : groupIds(container, null)) {
          Entry group = container.get(id);
          if (group != null && lists(group, dn)) {
            groups.add(group.getParsedDN());
          }
        }
      }
    }
    return groups;
  }

  static boolean isStaticGroup(Entry entry) {
    return entry.hasObjectClass("groupOfNames") || entry.hasObjectClass("groupOfUniqueNames");
  }

  /** Every static group that grants privileges, read from the backends. */
  Map<DN, Set<String>> privilegedGroups() throws LDAPException {
    Map<DN, Set<String>> found = new HashMap<>();
    for (EntryContainer container : containers()) {
      for (long id : groupIds(container, null)) {
        Entry group = container.getForMatching(id);
        Set<String> granted = group == null ? Set.of() : GroupPrivileges.granted(group);
        if (!granted.isEmpty()) {
          found.put(group.getParsedDN(), granted);
        }
      }
    }
    return Map.copyOf(found);
  }

  static boolean lists(Entry group, DN dn) {
    for (String attribute : MEMBER_ATTRIBUTES) {
      String[] values = group.getAttributeValues(attribute);
      if (values != null) {
        for (String v : values) {
          if (sameDn(v, dn)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  static boolean sameDn(String value, DN dn) {
    try {
      return new DN(value).equals(dn);
    } catch (LDAPException notADn) {
      return false;
    }
  }

  /** The IDs listing {@code dn} in the equality index of {@code attribute}; null if unusable. */
  private static IdSet listing(EntryContainer container, String attribute, DN dn)
      throws LDAPException {
    AttributeIndex index = container.index(attribute, IndexType.EQUALITY);
    return index == null ? null : index.idsEqualTo(new ASN1OctetString(dn.toString()));
  }

  /**
   * The IDs of the groups of a container: by the objectClass index when there is one, else by a
   * scan. {@code objectClass} null means the static group classes.
   */
  private long[] groupIds(EntryContainer container, String objectClass) throws LDAPException {
    Filter filter =
        objectClass == null
            ? STATIC_GROUPS
            : Filter.createEqualityFilter("objectClass", objectClass);
    AttributeIndex index = container.index("objectClass", IndexType.EQUALITY);
    if (index != null && index.isTrusted()) {
      IdSet ids = IdSet.empty();
      for (Filter f : objectClass == null ? filter.getComponents() : new Filter[] {filter}) {
        IdSet found = index.idsEqualTo(new ASN1OctetString(f.getAssertionValue()));
        if (found == null) {
          return scan(container, filter);
        }
        ids = ids.union(found);
      }
      return ids.toArray();
    }
    return scan(container, filter);
  }

  private long[] scan(EntryContainer container, Filter filter) throws LDAPException {
    FilterEvaluator evaluator = schema.evaluator();
    IdSet.Builder ids = new IdSet.Builder();
    container.visitScope(
        container.baseDn(),
        SearchScope.SUB,
        (key, id) -> {
          Entry e = container.getForMatching(id);
          if (e != null && evaluator.matches(filter, e)) {
            ids.add(id);
          }
          return true;
        });
    return ids.build().toArray();
  }

  List<EntryContainer> containers() {
    List<EntryContainer> all = new ArrayList<>();
    for (var backend : backends.all()) {
      for (DN base : backend.baseDns()) {
        EntryContainer c = backend.containerFor(base);
        if (c != null) {
          all.add(c);
        }
      }
    }
    return all;
  }
}
