package io.rockds.server.search;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.CaseExactStringMatchingRule;
import com.unboundid.ldap.matchingrules.CaseIgnoreStringMatchingRule;
import com.unboundid.ldap.matchingrules.GeneralizedTimeMatchingRule;
import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.matchingrules.NumericStringMatchingRule;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.ServerSideSortResponseControl;
import com.unboundid.ldap.sdk.controls.SortKey;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.VlvIndex;
import io.rockds.storage.matching.MatchingRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Server-side sorting (RFC 2891). The matching entries are sorted in memory, at most {@value
 * #MAX_SORTED_ENTRIES} of them (VLV indexes come later). Each key orders by its matching rule, or
 * the attribute's ordering rule: string and time rules compare normalized values as bytes, i.e. by
 * Unicode code point after case folding; others (integer) by the rule itself. A multi-valued
 * attribute sorts by its smallest value (largest in reverse order); an entry without the attribute
 * sorts as if its value were larger than any other.
 *
 * <p>A key that cannot be used is reported in the response control: noSuchAttribute (16) for an
 * unknown attribute, inappropriateMatching (18) for an unknown or non-ordering rule,
 * adminLimitExceeded (11) for too many entries. A critical control then fails the search with
 * unavailableCriticalExtension (12); a non-critical one leaves the results unsorted.
 */
public final class ServerSideSort {
  public static final String OID = ServerSideSortRequestControl.SERVER_SIDE_SORT_REQUEST_OID;
  public static final int MAX_SORTED_ENTRIES = 100_000;
  private static final Set<Class<? extends MatchingRule>> BYTE_ORDERED =
      Set.of(
          CaseIgnoreStringMatchingRule.class,
          CaseExactStringMatchingRule.class,
          GeneralizedTimeMatchingRule.class,
          NumericStringMatchingRule.class);

  private record Key(
      String baseName, Set<String> options, String ruleId, MatchingRule rule, boolean reverse) {}

  /** An entry ready to sort: its ID and the value of each key (null when absent). */
  public record Sortable(long id, Object[] values) {}

  private final boolean critical;
  private final List<Key> keys = new ArrayList<>();
  private ResultCode failure;
  private String failedAttribute;

  private ServerSideSort(ServerSideSortRequestControl control, Schema schema) {
    this.critical = control.isCritical();
    for (SortKey sortKey : control.getSortKeys()) {
      String[] parts = sortKey.getAttributeName().split(";");
      if (schema.getAttributeType(parts[0]) == null) {
        fail(ResultCode.NO_SUCH_ATTRIBUTE, sortKey.getAttributeName());
        return;
      }
      String ruleId = sortKey.getMatchingRuleID();
      if (ruleId != null && schema.getMatchingRule(ruleId) == null) {
        fail(ResultCode.INAPPROPRIATE_MATCHING, sortKey.getAttributeName());
        return;
      }
      // No rule named and the type has no ORDERING rule: inappropriateMatching (RFC 2891 section
      // 1.2).
      MatchingRule rule =
          ruleId == null
              ? MatchingRules.strict(parts[0], MatchingRules.Kind.ORDERING, schema)
              : MatchingRule.selectOrderingMatchingRule(parts[0], ruleId, schema);
      if (rule == null || !orders(rule)) {
        fail(ResultCode.INAPPROPRIATE_MATCHING, sortKey.getAttributeName());
        return;
      }
      Set<String> options = new HashSet<>();
      for (int i = 1; i < parts.length; i++) {
        options.add(parts[i].toLowerCase(Locale.ROOT));
      }
      keys.add(new Key(parts[0], options, ruleId, rule, sortKey.reverseOrder()));
    }
  }

  /** The request's sort control, or null; protocolError (2) when it cannot be decoded. */
  public static ServerSideSort from(Control control, Schema schema) throws LDAPException {
    if (control == null) {
      return null;
    }
    try {
      return new ServerSideSort(new ServerSideSortRequestControl(control), schema);
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.PROTOCOL_ERROR, "invalid server-side sort control: " + e.getMessage(), e);
    }
  }

  private static boolean orders(MatchingRule rule) {
    if (BYTE_ORDERED.contains(rule.getClass())) {
      return true;
    }
    try {
      rule.compareValues(new ASN1OctetString("1"), new ASN1OctetString("2"));
      return true;
    } catch (LDAPException e) {
      return e.getResultCode() != ResultCode.INAPPROPRIATE_MATCHING;
    }
  }

  private void fail(ResultCode code, String attribute) {
    failure = code;
    failedAttribute = attribute;
  }

  /** False when a key could not be used; the search then fails (critical) or is not sorted. */
  public boolean usable() {
    return failure == null;
  }

  /**
   * Fails the search if sorting failed and the control is critical: unavailableCriticalExtension
   * (12) with the response control saying why.
   */
  public void requireUsableIfCritical() throws LDAPException {
    if (failure != null && critical) {
      throw new LDAPException(
          ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
          "The results cannot be sorted as requested: "
              + failure
              + (failedAttribute == null ? "" : " (" + failedAttribute + ")"),
          null,
          null,
          new Control[] {responseControl()});
    }
  }

  /**
   * The sort order as a VLV index is matched against it; empty when a key names attribute options
   * (no VLV index sorts by those).
   */
  public List<VlvIndex.RequestedKey> requestedKeys() {
    List<VlvIndex.RequestedKey> requested = new ArrayList<>();
    for (Key key : keys) {
      if (!key.options().isEmpty()) {
        return List.of();
      }
      requested.add(new VlvIndex.RequestedKey(key.baseName(), key.ruleId(), key.reverse()));
    }
    return requested;
  }

  /** Records that more than {@link #MAX_SORTED_ENTRIES} entries matched. */
  public void tooManyEntries() {
    fail(ResultCode.ADMIN_LIMIT_EXCEEDED, null);
  }

  /** The sort response control: success, or why the results are not sorted. */
  public Control responseControl() {
    return new ServerSideSortResponseControl(
        failure == null ? ResultCode.SUCCESS : failure, failedAttribute, false);
  }

  /** The sort values of an entry, extracted once so that sorting compares prepared values. */
  public Sortable sortable(long id, Entry entry) {
    Object[] values = new Object[keys.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = valueOf(keys.get(i), entry);
    }
    return new Sortable(id, values);
  }

  public Comparator<Sortable> comparator() {
    return (a, b) -> {
      for (int i = 0; i < keys.size(); i++) {
        int c = compare(keys.get(i), a.values()[i], b.values()[i]);
        if (c != 0) {
          return c;
        }
      }
      return Long.compare(a.id(), b.id());
    };
  }

  /**
   * Where an entry stands against a VLV assertion value in the order of the first key: negative
   * before it, zero or positive at or after it.
   */
  public int compareToAssertion(Sortable sortable, ASN1OctetString assertion) {
    Key first = keys.get(0);
    return compare(first, sortable.values()[0], prepare(first.rule(), assertion));
  }

  private static int compare(Key key, Object a, Object b) {
    if (a == null || b == null) {
      // Absent sorts as larger than any value, in either direction (RFC 2891 section 1.1).
      int absent = a == null ? (b == null ? 0 : 1) : -1;
      return key.reverse() ? -absent : absent;
    }
    int c = compareValues(key.rule(), a, b);
    return key.reverse() ? -c : c;
  }

  private static int compareValues(MatchingRule rule, Object a, Object b) {
    if (a instanceof byte[] x) {
      return Arrays.compareUnsigned(x, (byte[]) b);
    }
    try {
      return rule.compareValues((ASN1OctetString) a, (ASN1OctetString) b);
    } catch (LDAPException e) {
      return 0;
    }
  }

  /** The smallest value (largest when reversed) of the key's attribute, prepared for comparing. */
  private static Object valueOf(Key key, Entry entry) {
    Object best = null;
    for (Attribute attribute : entry.getAttributesWithOptions(key.baseName(), key.options())) {
      for (ASN1OctetString raw : attribute.getRawValues()) {
        Object value = prepare(key.rule(), raw);
        if (value != null
            && (best == null || (compareValues(key.rule(), value, best) < 0) != key.reverse())) {
          best = value;
        }
      }
    }
    return best;
  }

  private static Object prepare(MatchingRule rule, ASN1OctetString raw) {
    if (!BYTE_ORDERED.contains(rule.getClass())) {
      return raw;
    }
    try {
      return rule.normalize(raw).getValue();
    } catch (LDAPException e) {
      return null;
    }
  }
}
