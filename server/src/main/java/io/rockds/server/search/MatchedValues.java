package io.rockds.server.search;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.MatchedValuesFilter;
import com.unboundid.ldap.sdk.controls.MatchedValuesRequestControl;
import io.rockds.storage.matching.FilterEvaluator;
import java.util.ArrayList;
import java.util.List;

/**
 * The matched values control (RFC 3876): of the attributes a values-return filter names, only the
 * values that match one of its items are returned (an attribute left with none is omitted);
 * attributes no item names are returned whole. Each value is tested with the search's own
 * evaluator, so matching rules, options and subtypes behave as in filters.
 */
public final class MatchedValues {
  public static final String OID = MatchedValuesRequestControl.MATCHED_VALUES_REQUEST_OID;

  private final List<Filter> items = new ArrayList<>();
  private final FilterEvaluator evaluator;

  private MatchedValues(MatchedValuesRequestControl control, FilterEvaluator evaluator) {
    for (MatchedValuesFilter item : control.getFilters()) {
      items.add(item.toFilter());
    }
    this.evaluator = evaluator;
  }

  /**
   * The control's filter, or null when the request has none; protocolError (2) if it cannot be
   * decoded.
   */
  public static MatchedValues from(Control control, FilterEvaluator evaluator)
      throws LDAPException {
    if (control == null) {
      return null;
    }
    try {
      return new MatchedValues(new MatchedValuesRequestControl(control), evaluator);
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.PROTOCOL_ERROR, "invalid matched values control: " + e.getMessage(), e);
    }
  }

  public List<Attribute> apply(String dn, List<Attribute> attributes) {
    List<Attribute> out = new ArrayList<>(attributes.size());
    for (Attribute attribute : attributes) {
      List<Filter> naming = itemsNaming(dn, attribute);
      if (naming.isEmpty()) {
        out.add(attribute);
        continue;
      }
      List<ASN1OctetString> kept = new ArrayList<>();
      for (ASN1OctetString value : attribute.getRawValues()) {
        Entry single = new Entry(dn, new Attribute(attribute.getName(), value.getValue()));
        if (naming.stream().anyMatch(item -> evaluator.matches(item, single))) {
          kept.add(value);
        }
      }
      if (!kept.isEmpty()) {
        out.add(new Attribute(attribute.getName(), kept.toArray(new ASN1OctetString[0])));
      }
    }
    return out;
  }

  /** The items whose attribute description covers {@code attribute} (or that name none). */
  private List<Filter> itemsNaming(String dn, Attribute attribute) {
    Entry typeOnly = new Entry(dn, new Attribute(attribute.getName(), ""));
    List<Filter> naming = new ArrayList<>();
    for (Filter item : items) {
      String described = item.getAttributeName();
      if (described == null
          || evaluator.matches(Filter.createPresenceFilter(described), typeOnly)) {
        naming.add(item);
      }
    }
    return naming;
  }
}
