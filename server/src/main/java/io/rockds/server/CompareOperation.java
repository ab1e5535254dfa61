package io.rockds.server;

import com.unboundid.ldap.protocol.CompareRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.logging.OperationRecord;
import io.rockds.storage.StoredEntry;

/**
 * A compare (RFC 4511 section 4.10) on an entry of any backend: compareTrue (6) or compareFalse (5)
 * by the attribute's equality rule, noSuchAttribute (16) when the entry has no such attribute,
 * undefinedAttributeType (17) for a name the schema does not know, inappropriateMatching (18) for a
 * type without an equality rule, invalidAttributeSyntax (21) for a value the rule cannot read.
 * Virtual attributes (memberOf, entryDN...) compare too.
 */
record CompareOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
  void run() throws LDAPException {
    CompareRequestProtocolOp compare = request.getCompareRequestProtocolOp();
    DN dn = Dns.parse(compare.getDN());
    context.serverSchema().checker().type(Attribute.getBaseName(compare.getAttributeName()));
    DirectoryBackend backend = context.router().route(dn);
    AccessRule read = backend.readAccess();
    context.access().checkRead(client, read);
    // Tested, not sent: a group's members stay unread, the asserted one is a point read.
    Entry stored = backend.getForMatching(dn);
    if (stored == null) {
      DN matched = backend.matchedDn(dn);
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT,
          "The entry " + dn + " does not exist",
          matched == null ? null : matched.toString(),
          null);
    }
    context.access().checkCompare(client, read, stored, compare.getAttributeName());
    new WriteControls(request, context.schema(), client.identity()).checkAssertion(stored);
    Entry entry = backend.withComputed(stored, compare.getAttributeName());
    if (!entry.hasAttribute(compare.getAttributeName())
        && !(entry instanceof StoredEntry lacking
            && lacking.lacksValuesOf(compare.getAttributeName()::equalsIgnoreCase))) {
      throw new LDAPException(
          ResultCode.NO_SUCH_ATTRIBUTE,
          "The entry " + dn + " has no attribute " + compare.getAttributeName());
    }
    byte[] value = compare.getAssertionValue().getValue();
    boolean matches =
        context.serverSchema().evaluator().compare(entry, compare.getAttributeName(), value)
            || isClearTextOfStoredPassword(entry, compare.getAttributeName(), value);
    ResultCode result = matches ? ResultCode.COMPARE_TRUE : ResultCode.COMPARE_FALSE;
    OperationRecord.current().result(result.intValue());
    client.ldap().send(Responses.result(request, result, null));
  }

  /**
   * A clear-text password compares true against its stored hash, as in slapd and OpenDJ: clients
   * check a password by compare, and the hash is not theirs to know.
   */
  private boolean isClearTextOfStoredPassword(Entry entry, String attribute, byte[] clear) {
    if (!Attribute.getBaseName(attribute).equalsIgnoreCase(PasswordValues.ATTRIBUTE)) {
      return false;
    }
    for (Attribute password : entry.getAttributesWithOptions(PasswordValues.ATTRIBUTE, null)) {
      for (byte[] stored : password.getValueByteArrays()) {
        if (context.passwords().verify(clear, stored)) {
          return true;
        }
      }
    }
    return false;
  }
}
