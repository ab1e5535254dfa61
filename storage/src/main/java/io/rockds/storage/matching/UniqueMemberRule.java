package io.rockds.storage.matching;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.matchingrules.DistinguishedNameMatchingRule;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * uniqueMemberMatch (RFC 4517 section 4.2.31) on NameAndOptionalUID values ({@code
 * <DN>[#'<bits>'B]}): the DNs compare by distinguishedNameMatch and the optional unique identifiers
 * bit for bit; a value with an identifier never equals one without.
 */
final class UniqueMemberRule extends NamedMatchingRule {
  static final UniqueMemberRule INSTANCE = new UniqueMemberRule();
  private static final long serialVersionUID = 1L;
  private static final Pattern WITH_UID = Pattern.compile("(.*)#'([01]*)'B", Pattern.DOTALL);

  private UniqueMemberRule() {
    super("uniqueMemberMatch", "2.5.13.23", null, null);
  }

  @Override
  public ASN1OctetString normalize(ASN1OctetString value) throws LDAPException {
    Matcher m = WITH_UID.matcher(value.stringValue());
    if (!m.matches()) {
      return DistinguishedNameMatchingRule.getInstance().normalize(value);
    }
    String dn =
        DistinguishedNameMatchingRule.getInstance()
            .normalize(new ASN1OctetString(m.group(1)))
            .stringValue();
    return new ASN1OctetString(dn + "#'" + m.group(2) + "'B");
  }

  @Override
  public ASN1OctetString normalizeSubstring(ASN1OctetString value, byte substringType)
      throws LDAPException {
    throw new LDAPException(
        ResultCode.INAPPROPRIATE_MATCHING, "uniqueMemberMatch has no substring form");
  }
}
