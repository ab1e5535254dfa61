package io.rockds.server.security;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.server.Backends;
import io.rockds.server.Identity;
import io.rockds.server.UserLimits;
import io.rockds.server.group.Groups;
import io.rockds.server.security.aci.DirectoryReader;
import io.rockds.server.security.privilege.Privilege;
import io.rockds.storage.AttributeProjection;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.ReadFrom;
import io.rockds.storage.matching.FilterEvaluator;
import io.rockds.storage.search.SearchCandidates;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The entry reads security needs, straight from the backends (no access control applies to them).
 */
public final class EntryLookup implements DirectoryReader {
  private static final String[] MEMBER_ATTRIBUTES = {"member", "uniqueMember"};

  /** Every attribute of the user's entry {@link #identityOf} reads. */
  public static final List<String> IDENTITY_ATTRIBUTES =
      Stream.concat(Stream.of(Privilege.ATTRIBUTE), UserLimits.ATTRIBUTES.stream()).toList();

  private final Backends backends;
  private final Schema schema;
  private final Groups groups;

  public EntryLookup(Backends backends, Schema schema, Groups groups) {
    this.backends = backends;
    this.schema = schema;
    this.groups = groups;
  }

  /**
   * The identity {@code user} authenticates as: its DN, its {@code ds-rlim-*} limits, its own
   * {@code ds-privilege-name} values and those of every static group listing it, nested groups
   * included. OpenDJ grants privileges to a group's members through a collective {@code
   * ds-privilege-name} attribute; RockDS reads them from the group entry itself, so they follow
   * membership at each bind.
   */
  public Identity identityOf(Entry user) throws LDAPException {
    return identityOf(user, user.getParsedDN());
  }

  /** {@link #identityOf(Entry)} with the entry's DN parsed already ({@code dn}). */
  public Identity identityOf(Entry user, DN dn) throws LDAPException {
    Set<String> privileges = new HashSet<>(values(user, Privilege.ATTRIBUTE));
    Map<DN, Set<String>> granting = groups.privileges().byGroup();
    if (!granting.isEmpty()) {
      for (DN group : groups.memberOf(dn)) {
        privileges.addAll(granting.getOrDefault(group, Set.of()));
      }
    }
    return new Identity(dn, false, privileges, UserLimits.of(user));
  }

  private static List<String> values(Entry entry, String attribute) {
    String[] values = entry.getAttributeValues(attribute);
    return values == null ? List.of() : List.of(values);
  }

  /** The entry, or null when no backend holds it. */
  @Override
  public Entry get(DN dn) throws LDAPException {
    EntryContainer container = backends.containerFor(dn);
    return container == null ? null : container.get(dn);
  }

  /**
   * The entry, or null, without the values it stores apart (a group's members, possibly millions),
   * which it says it lacks ({@link io.rockds.storage.StoredEntry#lacksValues}): one point read at
   * most, for a reader that must not wait.
   */
  public Entry getForMatching(DN dn) throws LDAPException {
    EntryContainer container = backends.containerFor(dn);
    return container == null ? null : container.getForMatching(dn);
  }

  /**
   * The entry, or null, with at least the attributes {@code reads} keeps and never the values it
   * stores apart: the cached entry, else only those attributes decoded from its record (a user's
   * photo and the rest are skipped), without filling the cache. One point read of each tree at
   * most, for a reader that knows what it reads, such as authentication; with {@link
   * ReadFrom#MEMORY} a record on disk fails the read ({@link
   * io.rockds.storage.StorageException.Kind#NOT_IN_MEMORY}) instead of waiting for it.
   */
  public Entry getReading(DN dn, AttributeProjection reads, ReadFrom from) throws LDAPException {
    EntryContainer container = backends.containerFor(dn);
    return container == null ? null : container.peekWithoutValuesApart(dn, reads, from);
  }

  /**
   * The entry as access control tests it, or an entry with only the DN (targets by DN still apply;
   * filters see nothing). It may lack the members of a group (target filters test them by point
   * reads, userattr reads them): a write to a group of a million members does not read them all.
   */
  Entry getOrStub(DN dn) throws LDAPException {
    EntryContainer container = backends.containerFor(dn);
    Entry entry = container == null ? null : container.getForMatching(dn);
    return entry != null ? entry : new Entry(dn);
  }

  @Override
  public boolean isMember(DN user, DN group) {
    try {
      EntryContainer container = backends.containerFor(group);
      // Tested, not read: the members are stored apart, and one of them is one point read.
      Entry entry = container == null ? null : container.getForMatching(group);
      if (entry == null) {
        return false;
      }
      FilterEvaluator evaluator = FilterEvaluator.forSchema(schema);
      String value = user.toString();
      for (String attribute : MEMBER_ATTRIBUTES) {
        if (evaluator.matches(Filter.createEqualityFilter(attribute, value), entry)) {
          return true;
        }
      }
      return false;
    } catch (LDAPException e) {
      return false;
    }
  }

  /**
   * The entries of every backend matching an indexed equality or presence filter; an unindexed
   * filter walks the backends (bounded by their size).
   */
  List<Entry> findAll(Filter filter) throws LDAPException {
    List<Entry> found = new ArrayList<>();
    for (Backend backend : backends.all()) {
      for (EntryContainer container : backend.containers()) {
        SearchCandidates.visitMatches(container, schema, filter, 0, found::add);
      }
    }
    return found;
  }
}
