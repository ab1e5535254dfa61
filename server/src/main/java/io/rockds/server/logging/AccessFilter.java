package io.rockds.server.logging;

import com.unboundid.ldap.sdk.DN;
import io.rockds.config.FilteringCriteriaConfig;
import java.util.List;

/**
 * A publisher's {@code filtering-policy} applied with its criteria: {@code no-filtering} logs
 * everything, {@code inclusive} only records matching at least one criteria, {@code exclusive} all
 * records but those. A record matches a criteria when it meets every condition the criteria sets;
 * conditions about results (etime, result code, nentries, indexed) never match connection events,
 * which have none.
 */
final class AccessFilter {
  private final String policy;
  private final List<FilteringCriteriaConfig> criteria;

  AccessFilter(String policy, List<FilteringCriteriaConfig> criteria) {
    this.policy = policy;
    this.criteria = List.copyOf(criteria);
  }

  boolean accepts(AccessRecord record) {
    return switch (policy) {
      case "inclusive" -> criteria.stream().anyMatch(c -> matches(c, record));
      case "exclusive" -> criteria.stream().noneMatch(c -> matches(c, record));
      default -> true;
    };
  }

  static boolean matches(FilteringCriteriaConfig c, AccessRecord r) {
    if (!c.recordTypes().isEmpty() && !c.recordTypes().contains(r.recordType())) {
      return false;
    }
    if (!c.clientAddressEqualTo().isEmpty()
        && !c.clientAddressEqualTo().contains(r.clientAddress())) {
      return false;
    }
    if (c.clientAddressNotEqualTo().contains(r.clientAddress())) {
      return false;
    }
    if (!c.userDnEqualTo().isEmpty()
        && c.userDnEqualTo().stream().noneMatch(dn -> within(r.userDn(), dn))) {
      return false;
    }
    if (c.userDnNotEqualTo().stream().anyMatch(dn -> within(r.userDn(), dn))) {
      return false;
    }
    if (!c.resultCodeEqualTo().isEmpty() && !c.resultCodeEqualTo().contains(r.result())) {
      return false;
    }
    if (c.resultCodeNotEqualTo().contains(r.result())) {
      return false;
    }
    if (c.etimeGreaterThan() != null
        && !(r.etimeMillis() >= 0 && r.etimeMillis() > c.etimeGreaterThan())) {
      return false;
    }
    if (c.etimeLessThan() != null
        && !(r.etimeMillis() >= 0 && r.etimeMillis() < c.etimeLessThan())) {
      return false;
    }
    boolean search = r.type().equals("SEARCH");
    if (c.searchIndexed() != null && !(search && r.unindexed() != c.searchIndexed())) {
      return false;
    }
    if (c.nentriesGreaterThan() != null && !(search && r.nentries() > c.nentriesGreaterThan())) {
      return false;
    }
    return c.nentriesLessThan() == null || (search && r.nentries() < c.nentriesLessThan());
  }

  private static boolean within(DN user, DN configured) {
    return !user.isNullDN() && user.isDescendantOf(configured, true);
  }
}
