package io.rockds.server.logging;

import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyDNRequestProtocolOp;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.SearchScope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The access log's name and fields of a request, in OpenDJ's order. */
final class RequestFields {
  private RequestFields() {}

  /** OpenDJ's record type name: SEARCH, MODDN, ... */
  static String type(LDAPMessage request) {
    return switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST -> "BIND";
      case LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST -> "SEARCH";
      case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST -> "ADD";
      case LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST -> "DELETE";
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST -> "MODIFY";
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST -> "MODDN";
      case LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_REQUEST -> "COMPARE";
      case LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_REQUEST -> "EXTENDED";
      case LDAPMessage.PROTOCOL_OP_TYPE_ABANDON_REQUEST -> "ABANDON";
      case LDAPMessage.PROTOCOL_OP_TYPE_UNBIND_REQUEST -> "UNBIND";
      default -> "UNKNOWN";
    };
  }

  static Map<String, String> of(LDAPMessage request) {
    Map<String, String> fields = new LinkedHashMap<>();
    switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST -> {
        BindRequestProtocolOp bind = request.getBindRequestProtocolOp();
        fields.put("version", Integer.toString(bind.getVersion()));
        fields.put(
            "type",
            bind.getCredentialsType() == BindRequestProtocolOp.CRED_TYPE_SIMPLE
                ? "SIMPLE"
                : "SASL");
        if (bind.getSASLMechanism() != null) {
          fields.put("mechanism", bind.getSASLMechanism());
        }
        fields.put("dn", bind.getBindDN());
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST -> {
        SearchRequestProtocolOp search = request.getSearchRequestProtocolOp();
        fields.put("base", search.getBaseDN());
        fields.put("scope", scope(search.getScope()));
        fields.put("filter", search.getFilter().toString());
        List<String> attrs = search.getAttributes();
        fields.put("attrs", attrs.isEmpty() ? "ALL" : String.join(",", attrs));
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST ->
          fields.put("dn", request.getAddRequestProtocolOp().getDN());
      case LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST ->
          fields.put("dn", request.getDeleteRequestProtocolOp().getDN());
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST ->
          fields.put("dn", request.getModifyRequestProtocolOp().getDN());
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST -> {
        ModifyDNRequestProtocolOp op = request.getModifyDNRequestProtocolOp();
        fields.put("dn", op.getDN());
        fields.put("newRDN", op.getNewRDN());
        fields.put("deleteOldRDN", Boolean.toString(op.deleteOldRDN()));
        if (op.getNewSuperiorDN() != null) {
          fields.put("newSuperior", op.getNewSuperiorDN());
        }
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_REQUEST -> {
        fields.put("dn", request.getCompareRequestProtocolOp().getDN());
        fields.put("attr", request.getCompareRequestProtocolOp().getAttributeName());
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_REQUEST ->
          fields.put("oid", request.getExtendedRequestProtocolOp().getOID());
      default -> {}
    }
    return fields;
  }

  private static String scope(SearchScope scope) {
    return switch (scope.intValue()) {
      case SearchScope.BASE_INT_VALUE -> "base";
      case SearchScope.ONE_INT_VALUE -> "one";
      case SearchScope.SUBORDINATE_SUBTREE_INT_VALUE -> "subordinate";
      default -> "sub";
    };
  }
}
