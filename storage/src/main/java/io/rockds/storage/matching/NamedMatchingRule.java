package io.rockds.storage.matching;

import com.unboundid.ldap.matchingrules.SimpleMatchingRule;

/**
 * A matching rule of RFC 4517 that the UnboundID SDK lacks: its equality and substring forms by
 * name and OID (null where the rule has no such form), and no ordering form; subclasses say how
 * values normalize.
 */
abstract class NamedMatchingRule extends SimpleMatchingRule {
  private static final long serialVersionUID = 1L;

  private final String equalityName;
  private final String equalityOid;
  private final String substringName;
  private final String substringOid;

  NamedMatchingRule(
      String equalityName, String equalityOid, String substringName, String substringOid) {
    this.equalityName = equalityName;
    this.equalityOid = equalityOid;
    this.substringName = substringName;
    this.substringOid = substringOid;
  }

  @Override
  public final String getEqualityMatchingRuleName() {
    return equalityName;
  }

  @Override
  public final String getEqualityMatchingRuleOID() {
    return equalityOid;
  }

  @Override
  public final String getOrderingMatchingRuleName() {
    return null;
  }

  @Override
  public final String getOrderingMatchingRuleOID() {
    return null;
  }

  @Override
  public final String getSubstringMatchingRuleName() {
    return substringName;
  }

  @Override
  public final String getSubstringMatchingRuleOID() {
    return substringOid;
  }
}
