package io.rockds.server;

import io.rockds.server.logging.OperationRecord;

import com.unboundid.ldap.protocol.CompareRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.DirectoryBackend;

/**
 * A compare (RFC 4511 section 4.10) on an entry of any backend: compareTrue (6) or compareFalse
 * (5) by the attribute's equality rule, noSuchAttribute (16) when the entry has no such attribute,
 * undefinedAttributeType (17) for a name the schema does not know. Virtual attributes (memberOf,
 * entryDN...) compare too.
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
    context.serverSchema().checker().type(Attribute.getBaseName(compare.getAttributeName()));
    DirectoryBackend backend = context.router().route(dn);
    AccessRule read = backend.readAccess();
    context.access().checkRead(client, read);
    Entry stored = backend.get(dn);
    if (stored == null) {
      DN matched = backend.matchedDn(dn);
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The entry " + dn + " does not exist",
          matched == null ? null : matched.toString(), null);
    }
    context.access().checkCompare(client, read, stored, compare.getAttributeName());
    new WriteControls(request, context.schema(), client.identity()).checkAssertion(stored);
    Entry entry = backend.withComputed(stored, compare.getAttributeName());
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
    ResultCode result = matches ? ResultCode.COMPARE_TRUE : ResultCode.COMPARE_FALSE;
    OperationRecord.current().result(result.intValue());
    client.ldap().send(Responses.result(request, result, null));
  }
}
