package io.rockds.server;

import com.unboundid.ldap.protocol.CompareRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.storage.EntryContainer;

/**
 * A compare (RFC 4511 section 4.10): compareTrue (6) or compareFalse (5) by the attribute's
 * equality rule, noSuchAttribute (16) when the entry has no such attribute.
 */
final class CompareOperation {
  private final ServerContext context;
  private final ClientConnection client;
  private final LDAPMessage request;

  CompareOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
    this.context = context;
    this.client = client;
    this.request = request;
  }

  void run() throws LDAPException {
    CompareRequestProtocolOp compare = request.getCompareRequestProtocolOp();
    DN dn = Dns.parse(compare.getDN());
    EntryContainer container = WriteTarget.container(context, dn);
    Entry entry = container.get(dn);
    if (entry == null) {
      DN matched = container.matchedDn(dn);
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The entry " + dn + " does not exist",
          matched == null ? null : matched.toString(), null);
    }
    context.access().checkCompare(client, entry, compare.getAttributeName());
    if (!entry.hasAttribute(compare.getAttributeName())) {
      throw new LDAPException(ResultCode.NO_SUCH_ATTRIBUTE,
          "The entry " + dn + " has no attribute " + compare.getAttributeName());
    }
    Filter assertion = Filter.createEqualityFilter(compare.getAttributeName(), compare.getAssertionValue().getValue());
    boolean matches;
    try {
      matches = assertion.matchesEntry(entry, context.schema());
    } catch (LDAPException e) {
      throw new LDAPException(ResultCode.INVALID_ATTRIBUTE_SYNTAX,
          "the assertion value is not valid for " + compare.getAttributeName());
    }
    client.ldap().send(Responses.result(request, matches ? ResultCode.COMPARE_TRUE : ResultCode.COMPARE_FALSE, null));
  }
}
