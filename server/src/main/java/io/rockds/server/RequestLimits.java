package io.rockds.server;

import com.unboundid.ldap.protocol.AddRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.RequestLimitsConfig;
import java.util.ArrayDeque;
import java.util.function.Supplier;

/**
 * Defensive limits on the size of what one request asks for, checked before the operation runs: the
 * length and RDN count of the DNs it names, filter nesting and components, substring parts,
 * requested attributes, attributes and values of an add. A request over a limit is refused with
 * adminLimitExceeded (11) and a message naming the limit and the configuration property that sets
 * it. The limits are read per request, so dsconfig changes apply at once.
 *
 * <p>The DN limits are checked on the raw strings, before any parsing: every later step (parsing,
 * normalizing, the dn2id key, the matchedDN) is then bounded by them.
 *
 * <p>The BER depth bound of the protocol front end already stops pathological nesting before
 * decoding; these limits are the tighter, configurable policy on top.
 */
final class RequestLimits {
  private final Supplier<RequestLimitsConfig> live;

  RequestLimits(Supplier<RequestLimitsConfig> live) {
    this.live = live;
  }

  void check(LDAPMessage request) throws LDAPException {
    RequestLimitsConfig config = live.get();
    switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST -> {
        checkDn(request.getSearchRequestProtocolOp().getBaseDN(), config);
        checkFilter(request.getSearchRequestProtocolOp().getFilter(), config);
        int requested = request.getSearchRequestProtocolOp().getAttributes().size();
        exceed(
            requested,
            config.maxRequestedAttributes(),
            "requested attributes",
            "max-requested-attributes");
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST -> {
        checkDn(request.getAddRequestProtocolOp().getDN(), config);
        checkAdd(request.getAddRequestProtocolOp(), config);
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST ->
          checkDn(request.getBindRequestProtocolOp().getBindDN(), config);
      case LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST ->
          checkDn(request.getDeleteRequestProtocolOp().getDN(), config);
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST ->
          checkDn(request.getModifyRequestProtocolOp().getDN(), config);
      case LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_REQUEST ->
          checkDn(request.getCompareRequestProtocolOp().getDN(), config);
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_DN_REQUEST -> {
        checkDn(request.getModifyDNRequestProtocolOp().getDN(), config);
        checkDn(request.getModifyDNRequestProtocolOp().getNewRDN(), config);
        String newSuperior = request.getModifyDNRequestProtocolOp().getNewSuperiorDN();
        if (newSuperior != null) {
          checkDn(newSuperior, config);
        }
      }
      default -> {
        // Other requests are bounded by the maximum request size alone.
      }
    }
  }

  private static void checkDn(String dn, RequestLimitsConfig config) throws LDAPException {
    exceed(dn.length(), config.maxDnLength(), "characters in one DN", "max-dn-length");
    exceed(rdnCount(dn), config.maxDnRdns(), "RDNs in one DN", "max-dn-rdns");
  }

  /**
   * The RDNs of a DN string, counted in one pass without parsing it: separators outside quoted
   * values and escapes, plus one. Exact for every valid DN; a malformed one fails parsing later.
   */
  static int rdnCount(String dn) {
    if (dn.isEmpty()) {
      return 0;
    }
    int count = 1;
    boolean quoted = false;
    for (int i = 0; i < dn.length(); i++) {
      char c = dn.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && (c == ',' || c == ';')) {
        count++;
      }
    }
    return count;
  }

  /** Walks the filter iteratively, counting components and tracking depth. */
  private static void checkFilter(Filter filter, RequestLimitsConfig config) throws LDAPException {
    ArrayDeque<Filter> pending = new ArrayDeque<>();
    ArrayDeque<Integer> depths = new ArrayDeque<>();
    pending.push(filter);
    depths.push(1);
    int components = 0;
    while (!pending.isEmpty()) {
      Filter current = pending.pop();
      int depth = depths.pop();
      exceed(
          ++components, config.maxFilterComponents(), "filter components", "max-filter-components");
      exceed(depth, config.maxFilterDepth(), "levels of filter nesting", "max-filter-depth");
      switch (current.getFilterType()) {
        case Filter.FILTER_TYPE_AND, Filter.FILTER_TYPE_OR -> {
          for (Filter component : current.getComponents()) {
            pending.push(component);
            depths.push(depth + 1);
          }
        }
        case Filter.FILTER_TYPE_NOT -> {
          pending.push(current.getNOTComponent());
          depths.push(depth + 1);
        }
        case Filter.FILTER_TYPE_SUBSTRING -> {
          int parts =
              current.getSubAnyBytes().length
                  + (current.getSubInitialBytes() == null ? 0 : 1)
                  + (current.getSubFinalBytes() == null ? 0 : 1);
          exceed(
              parts,
              config.maxSubstringComponents(),
              "substring components",
              "max-substring-components");
        }
        default -> {
          // Leaf filters hold one assertion.
        }
      }
    }
  }

  private static void checkAdd(AddRequestProtocolOp add, RequestLimitsConfig config)
      throws LDAPException {
    exceed(
        add.getAttributes().size(),
        config.maxAddAttributes(),
        "attributes in an add",
        "max-add-attributes");
    long values = 0;
    for (Attribute attribute : add.getAttributes()) {
      values += attribute.size();
    }
    exceed(values, config.maxAddValues(), "values in an add", "max-add-values");
  }

  private static void exceed(long actual, int limit, String what, String property)
      throws LDAPException {
    if (actual > limit) {
      throw new LDAPException(
          ResultCode.ADMIN_LIMIT_EXCEEDED,
          "The request has more than " + limit + " " + what + " (limit set by " + property + ")");
    }
  }
}
