package io.rockds.storage.matching;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.CaseIgnoreStringMatchingRule;
import com.unboundid.ldap.sdk.LDAPException;

/**
 * telephoneNumberMatch and telephoneNumberSubstringsMatch (RFC 4517 sections 4.2.29 and 4.2.30):
 * caseIgnoreMatch with every space and hyphen skipped, nothing else; {@code +1 (555) 0100} and
 * {@code +1(555)0100} are equal, {@code +1 555 0100} is not.
 */
final class TelephoneNumberRule extends NamedMatchingRule {
  static final TelephoneNumberRule INSTANCE = new TelephoneNumberRule();
  private static final long serialVersionUID = 1L;

  private TelephoneNumberRule() {
    super("telephoneNumberMatch", "2.5.13.20", "telephoneNumberSubstringsMatch", "2.5.13.21");
  }

  @Override
  public ASN1OctetString normalize(ASN1OctetString value) throws LDAPException {
    return CaseIgnoreStringMatchingRule.getInstance()
        .normalize(new ASN1OctetString(stripped(value)));
  }

  @Override
  public ASN1OctetString normalizeSubstring(ASN1OctetString value, byte substringType)
      throws LDAPException {
    return CaseIgnoreStringMatchingRule.getInstance()
        .normalizeSubstring(new ASN1OctetString(stripped(value)), substringType);
  }

  private static String stripped(ASN1OctetString value) {
    String s = value.stringValue();
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != ' ' && c != '-') {
        out.append(c);
      }
    }
    return out.toString();
  }
}
