package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.matching.FilterEvaluator;

/**
 * Which entries and attributes an ACI applies to. Absent parts mean: the entry holding the ACI (or,
 * for a global ACI, every entry) and its whole subtree, and no attribute: an ACI without {@code
 * targetattr} grants entry-level rights only (add, delete, seeing the entry), as in OpenDJ.
 *
 * @param target null when absent
 * @param targetAttributes null when absent
 * @param targetFilter null when absent
 */
record AciTargets(
    DnPattern target,
    boolean targetNegated,
    TargetAttributes targetAttributes,
    Filter targetFilter,
    boolean targetFilterNegated,
    TargetScope scope) {

  /**
   * True if the ACI held by {@code holder} (null for a global ACI) applies to {@code entry}, named
   * {@code dn}.
   */
  boolean appliesTo(DN holder, Entry entry, DN dn, Schema schema) {
    if (!inScope(holder, dn)) {
      return false;
    }
    if (targetFilter != null) {
      return FilterEvaluator.forSchema(schema).matches(targetFilter, entry) != targetFilterNegated;
    }
    return true;
  }

  private boolean inScope(DN holder, DN dn) {
    if (target == null) {
      return holder == null || scope.contains(holder, dn);
    }
    if (targetNegated) {
      // "everything except the target's subtree", still within the holder's subtree
      return !target.matchesSubtree(dn) && (holder == null || dn.isDescendantOf(holder, true));
    }
    if (!target.matchesSubtree(dn)) {
      return false;
    }
    DN base = target.matchingBase(dn);
    return base != null && scope.contains(base, dn);
  }

  /** True if the ACI covers that attribute (null for an entry-level right). */
  boolean coversAttribute(String attribute, boolean operational) {
    return targetAttributes != null && targetAttributes.covers(attribute, operational);
  }

  /** True if a deny of this ACI hides the whole entry: no targetattr, or one covering all. */
  boolean coversEntry() {
    return targetAttributes == null || targetAttributes.coversEverything();
  }
}
