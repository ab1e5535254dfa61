package io.rockds.server;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.schema.SubschemaEntry;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.matching.PreparedFilter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The attributes computed when read, never stored: entryDN (RFC 5020), hasSubordinates and
 * numSubordinates (from the children counter), subschemaSubentry, memberOf and isMemberOf (from the
 * groups). Computed only when a search asks for them (by name or {@code +}) or its filter names
 * them, so that {@code (memberOf=cn=admins,...)} is evaluated against the computed values.
 */
final class VirtualAttributes {
  private VirtualAttributes() {}

  private static final List<String> NAMES =
      List.of(
          "entryDN",
          "hasSubordinates",
          "numSubordinates",
          "subschemaSubentry",
          "memberOf",
          "isMemberOf");
  private static final List<String> LOWER_CASE_NAMES =
      NAMES.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();

  /**
   * The virtual attributes a search needs, decided once per search rather than per candidate entry.
   */
  static Set<String> wantedBy(AttributeSelection selection, PreparedFilter filter) {
    Set<String> wanted = new HashSet<>();
    for (int i = 0; i < NAMES.size(); i++) {
      String lowerCase = LOWER_CASE_NAMES.get(i);
      if (selection.wantsAllOperational()
          || selection.isNamedLowerCase(lowerCase)
          || filter.names(lowerCase)) {
        wanted.add(NAMES.get(i));
      }
    }
    return wanted;
  }

  /**
   * True if computing {@code wanted} reads the groups of an entry (memberOf: an index read per
   * group and nesting level; isMemberOf: every dynamic group too): no bound known in advance.
   */
  static boolean readsGroups(Set<String> wanted) {
    return wanted.contains("memberOf") || wanted.contains("isMemberOf");
  }

  /**
   * True if the filter tests a virtual attribute: a stored entry alone cannot tell whether it
   * matches.
   */
  static boolean namedIn(PreparedFilter filter) {
    for (String lowerCase : LOWER_CASE_NAMES) {
      if (filter.names(lowerCase)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A copy of {@code entry} with the {@link #wantedBy wanted} virtual attributes, or the entry
   * itself.
   */
  static Entry forSearch(
      ServerContext context, Entry entry, EntryContainer container, long id, Set<String> wanted)
      throws LDAPException {
    return wanted.isEmpty() ? entry : with(context, entry, container, id, wanted::contains);
  }

  /** A copy of {@code entry} with the one virtual attribute a compare names, if it is one. */
  static Entry forCompare(
      ServerContext context, Entry entry, EntryContainer container, String attribute)
      throws LDAPException {
    String wanted = Attribute.getBaseName(attribute);
    // Only the children counts need the entry's ID: other compares read no dn2id key again.
    boolean counts =
        wanted.equalsIgnoreCase("hasSubordinates") || wanted.equalsIgnoreCase("numSubordinates");
    long id = counts ? container.idOf(entry.getParsedDN()) : -1;
    return with(context, entry, container, id, name -> name.equalsIgnoreCase(wanted));
  }

  private static Entry with(
      ServerContext context,
      Entry entry,
      EntryContainer container,
      long id,
      Predicate<String> wants)
      throws LDAPException {
    boolean dn = wants.test("entryDN");
    boolean has = wants.test("hasSubordinates");
    boolean num = wants.test("numSubordinates");
    boolean schema = wants.test("subschemaSubentry");
    boolean memberOf = wants.test("memberOf");
    boolean isMemberOf = wants.test("isMemberOf");
    if (!dn && !has && !num && !schema && !memberOf && !isMemberOf) {
      return entry;
    }
    Entry copy = entry.duplicate();
    if (dn) {
      copy.setAttribute("entryDN", entry.getDN());
    }
    if (has || num) {
      long children = container.childCount(id);
      if (has) {
        copy.setAttribute("hasSubordinates", children > 0 ? "TRUE" : "FALSE");
      }
      if (num) {
        copy.setAttribute("numSubordinates", Long.toString(children));
      }
    }
    if (schema) {
      copy.setAttribute("subschemaSubentry", SubschemaEntry.DN_STRING);
    }
    if (memberOf) {
      setDns(copy, "memberOf", context.groups().memberOf(entry.getParsedDN()));
    }
    if (isMemberOf) {
      setDns(copy, "isMemberOf", context.groups().isMemberOf(entry));
    }
    return copy;
  }

  private static void setDns(Entry entry, String attribute, Set<DN> dns) {
    if (dns.isEmpty()) {
      return;
    }
    List<String> values = new ArrayList<>(dns.size());
    dns.forEach(d -> values.add(d.toString()));
    entry.setAttribute(attribute, values);
  }
}
