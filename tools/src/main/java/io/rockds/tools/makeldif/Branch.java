package io.rockds.tools.makeldif;

import java.util.List;

/**
 * A {@code branch:} entry with a fixed DN. Its object classes follow from its RDN attribute ({@code
 * dc} → domain, {@code o} → organization, {@code ou} → organizationalUnit, {@code c} → country,
 * {@code l} → locality, others → extensibleObject) unless its lines set {@code objectClass}
 * themselves.
 *
 * @param rdn the first RDN, as a DN string
 * @param parentDn the rest of the DN, empty for a one-RDN suffix
 * @param rdnValues the RDN's attribute name/value pairs, set on the entry
 */
record Branch(
    String rdn,
    String parentDn,
    List<String[]> rdnValues,
    List<String> objectClasses,
    List<TemplateLine> lines,
    List<Subordinate> subordinates) {

  String dn() {
    return parentDn.isEmpty() ? rdn : rdn + "," + parentDn;
  }
}
