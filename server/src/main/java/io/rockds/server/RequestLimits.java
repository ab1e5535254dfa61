package io.rockds.server;

import com.unboundid.ldap.protocol.AddRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.RequestLimitsConfig;
import java.util.ArrayDeque;

/**
 * Defensive limits on the size of what one request asks for, checked before the operation
 * runs: filter nesting and components, substring parts, requested attributes, attributes and
 * values of an add. A request over a limit is refused with adminLimitExceeded (11) and a message
 * naming the limit and the configuration property that sets it.
 *
 * <p>The BER depth bound of the protocol front end already stops pathological nesting before
 * decoding; these limits are the tighter, configurable policy on top.
 */
final class RequestLimits {
  private final RequestLimitsConfig config;

  RequestLimits(RequestLimitsConfig config) {
    this.config = config;
  }

  void check(LDAPMessage request) throws LDAPException {
    switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST -> {
        checkFilter(request.getSearchRequestProtocolOp().getFilter());
        int requested = request.getSearchRequestProtocolOp().getAttributes().size();
        exceed(requested, config.maxRequestedAttributes(), "requested attributes", "max-requested-attributes");
      }
      case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST -> checkAdd(request.getAddRequestProtocolOp());
      default -> {
        // Other requests are bounded by the maximum request size alone.
      }
    }
  }

  /** Walks the filter iteratively, counting components and tracking depth. */
  private void checkFilter(Filter filter) throws LDAPException {
    ArrayDeque<Filter> pending = new ArrayDeque<>();
    ArrayDeque<Integer> depths = new ArrayDeque<>();
    pending.push(filter);
    depths.push(1);
    int components = 0;
    while (!pending.isEmpty()) {
      Filter current = pending.pop();
      int depth = depths.pop();
      exceed(++components, config.maxFilterComponents(), "filter components", "max-filter-components");
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
          int parts = current.getSubAnyBytes().length + (current.getSubInitialBytes() == null ? 0 : 1)
              + (current.getSubFinalBytes() == null ? 0 : 1);
          exceed(parts, config.maxSubstringComponents(), "substring components", "max-substring-components");
        }
        default -> {
          // Leaf filters hold one assertion.
        }
      }
    }
  }

  private void checkAdd(AddRequestProtocolOp add) throws LDAPException {
    exceed(add.getAttributes().size(), config.maxAddAttributes(), "attributes in an add", "max-add-attributes");
    long values = 0;
    for (Attribute attribute : add.getAttributes()) {
      values += attribute.size();
    }
    exceed(values, config.maxAddValues(), "values in an add", "max-add-values");
  }

  private static void exceed(long actual, int limit, String what, String property) throws LDAPException {
    if (actual > limit) {
      throw new LDAPException(ResultCode.ADMIN_LIMIT_EXCEEDED,
          "The request has more than " + limit + " " + what + " (limit set by " + property + ")");
    }
  }
}
